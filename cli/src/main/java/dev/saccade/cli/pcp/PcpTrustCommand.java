package dev.saccade.cli.pcp;

import dev.saccade.cli.ExitCodes;
import dev.saccade.pcp.TrustedKeys;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code saccade pcp trust add|list|remove}: the Ed25519 keys whose manifest signatures PCP
 * accepts, kept in a 0700 directory ({@link TrustedKeys}); read at every registration, so no
 * restart is needed.
 */
@Command(name = "trust", mixinStandardHelpOptions = true, header = "Manage the keys trusted to sign PCP manifests.",
    description = {"add KEYFILE     trust a PEM Ed25519 public key (openssl pkey -pubout); prints its fingerprint",
        "list            print the fingerprints of the trusted keys",
        "remove FINGERPRINT  stop trusting a key"})
public final class PcpTrustCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Option(names = "--trust-dir", paramLabel = "DIR", description = "Key directory (default: $XDG_CONFIG_HOME/saccade/pcp-trust).")
    Path directory;
    @Parameters(index = "0", paramLabel = "ACTION", description = "add, list or remove")
    String action;
    @Parameters(index = "1", arity = "0..1", paramLabel = "ARG", description = "KEYFILE for add, FINGERPRINT for remove")
    String argument;

    @Override
    public Integer call() throws IOException {
        final TrustedKeys keys = new TrustedKeys(directory != null ? directory : TrustedKeys.defaultDirectory(System.getenv()));
        final PrintWriter out = spec.commandLine().getOut();
        switch (action) {
            case "add":
                out.println(keys.add(Path.of(required("KEYFILE"))));
                break;
            case "list":
                for (final Map.Entry<String, ?> e : keys.list().entrySet()) {
                    out.println(e.getKey() + " ed25519");
                }
                break;
            case "remove":
                if (!keys.remove(required("FINGERPRINT"))) {
                    spec.commandLine().getErr().println("saccade: no trusted key " + argument);
                    return ExitCodes.REQUEST_REJECTED;
                }
                out.println("removed " + argument);
                break;
            default:
                throw new ParameterException(spec.commandLine(), "ACTION must be add, list or remove, not " + action);
        }
        out.flush();
        return ExitCodes.SUCCESS;
    }

    private String required(final String what) {
        if (argument == null) {
            throw new ParameterException(spec.commandLine(), action + " needs " + what);
        }
        return argument;
    }
}

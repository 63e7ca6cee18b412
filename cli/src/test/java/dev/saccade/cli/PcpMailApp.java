package dev.saccade.cli;

import dev.saccade.pcp.JsonTree;
import dev.saccade.pcp.PcpClient;
import dev.saccade.pcp.TrustedKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The application process of {@link PcpCommandTest}: registers a signed {@code compose}
 * (trust {@code confirm}) for {@code org.example.mail} and answers each forwarded invocation
 * with its own pid, so the test sees where the capability ran. Args: socket, PKCS#8 key file.
 */
public final class PcpMailApp {
    private PcpMailApp() {
    }

    public static void main(final String[] args) throws Exception {
        final Map<String, Object> manifest = JsonTree.object("version", "1.0", "capabilities", List.of(
            JsonTree.object("name", "compose", "tier", 1L, "trust_level", "confirm", "confirmation_type", "send",
                "description", "Send email to {recipient}",
                "parameters", List.of(JsonTree.object("name", "recipient", "type", "string")))));
        manifest.put("signature", TrustedKeys.sign(manifest, KeyFactory.getInstance("Ed25519")
            .generatePrivate(new PKCS8EncodedKeySpec(Files.readAllBytes(Path.of(args[1]))))));
        try (PcpClient client = PcpClient.connect(Path.of(args[0]), Duration.ofHours(1))) {
            System.out.println(JsonTree.write(client.call("register.capability",
                JsonTree.object("app_id", "org.example.mail", "manifest", manifest), null)));
            System.out.flush();
            while (true) {
                final Map<String, Object> request = client.readMessage();
                final Map<?, ?> params = (Map<?, ?>) ((Map<?, ?>) request.get("params")).get("params");
                client.send(JsonTree.write(JsonTree.object("jsonrpc", "2.0", "id", request.get("id"), "result",
                    JsonTree.object("status", "success", "data", JsonTree.object("sent_to", params.get("recipient"),
                        "pid", ProcessHandle.current().pid())))));
            }
        }
    }
}

package dev.saccade.pcp;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A real second process for the PCP tests: an application that registers a signed manifest
 * ({@code compose} with trust {@code confirm}, {@code ping} auto, {@code stall} auto that never
 * answers, {@code erase} deny) and then serves the invocations PCP Core forwards to it. Every
 * invocation it runs is printed as {@code invoked <json>} so the test sees it ran here.
 *
 * <p>Args: socket, app id, PKCS#8 Ed25519 private key file, {@code tamper} to change the
 * manifest after signing.
 */
public final class PcpTestApplication {
    private PcpTestApplication() {
    }

    public static void main(final String[] args) throws Exception {
        final Path socket = Path.of(args[0]);
        final String appId = args[1];
        final PrivateKey key = KeyFactory.getInstance("Ed25519")
            .generatePrivate(new PKCS8EncodedKeySpec(Files.readAllBytes(Path.of(args[2]))));
        final boolean tamper = args.length > 3 && "tamper".equals(args[3]);
        final Map<String, Object> manifest = manifest();
        manifest.put("signature", TrustedKeys.sign(manifest, key));
        if (tamper) {
            @SuppressWarnings("unchecked") // a JSON object as manifest() builds it
            final Map<String, Object> first = (Map<String, Object>) ((List<?>) manifest.get("capabilities")).get(0);
            first.put("trust_level", "auto");
        }
        int served = 0;
        try (PcpClient client = PcpClient.connect(socket, Duration.ofHours(1))) {
            final Map<String, Object> reply = client.call("register.capability",
                JsonTree.object("app_id", appId, "manifest", manifest), null);
            System.out.println("registered " + JsonTree.write(reply));
            System.out.flush();
            while (true) {
                final Map<String, Object> request = client.readMessage();
                if (!"invoke.capability".equals(request.get("method"))) {
                    continue;
                }
                @SuppressWarnings("unchecked")
                final Map<String, Object> params = (Map<String, Object>) request.get("params");
                System.out.println("invoked " + JsonTree.write(params));
                System.out.flush();
                final String capability = (String) params.get("capability_id");
                if (capability.endsWith(".stall")) {
                    continue; // never answers: the caller must get -32009
                }
                served++;
                client.send(JsonTree.write(JsonTree.object("jsonrpc", "2.0", "id", request.get("id"), "result",
                    JsonTree.object("status", "success", "data", JsonTree.object("message_id", "msg-" + served,
                        "pid", ProcessHandle.current().pid(), "echo", params.get("params"))))));
            }
        }
    }

    static Map<String, Object> manifest() {
        return JsonTree.object("version", "1.0", "capabilities", List.of(
            JsonTree.object("name", "compose", "tier", 1L, "trust_level", "confirm", "confirmation_type", "send",
                "description", "Send email to {recipient}", "parameters", List.of(
                    JsonTree.object("name", "recipient", "type", "string"),
                    JsonTree.object("name", "subject", "type", "string"),
                    JsonTree.object("name", "body", "type", "string"))),
            JsonTree.object("name", "ping", "tier", 0L, "trust_level", "auto", "parameters", List.of(
                JsonTree.object("name", "count", "type", "integer", "required", false))),
            JsonTree.object("name", "stall", "tier", 0L, "trust_level", "auto"),
            JsonTree.object("name", "erase", "tier", 2L, "trust_level", "deny")));
    }
}

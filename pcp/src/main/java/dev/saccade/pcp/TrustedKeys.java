package dev.saccade.pcp;

import dev.saccade.ipc.RuntimeDirectory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The Ed25519 public keys whose manifest signatures we accept, one PEM file
 * ({@code -----BEGIN PUBLIC KEY-----}, X.509 SubjectPublicKeyInfo, what
 * {@code openssl pkey -pubout} writes) per key in a 0700 directory, named by the key's
 * fingerprint (first 16 bytes of the SHA-256 of its encoding, hex). Files are 0600.
 *
 * <p>A manifest's {@code signature} is the hex (128 digits) or base64 of the 64-byte Ed25519
 * signature over the UTF-8 canonical JSON ({@link JsonTree#canonical}) of the manifest object
 * without its {@code signature} member. The directory is read at every verification, so
 * {@code saccade pcp trust add} takes effect without a restart.
 */
public final class TrustedKeys {
    public static final String SUFFIX = ".pub";
    private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{32}");
    private static final int SIGNATURE_BYTES = 64;

    private final Path directory;

    public TrustedKeys(final Path directory) {
        this.directory = directory;
    }

    /** {@code $XDG_CONFIG_HOME/saccade/pcp-trust}, else {@code ~/.config/saccade/pcp-trust}; the property wins. */
    public static Path defaultDirectory(final Map<String, String> env) {
        final Path property = PcpConfiguration.trustDir();
        if (property != null) {
            return property;
        }
        final String config = env.get("XDG_CONFIG_HOME");
        final Path base = config != null && !config.isEmpty() ? Path.of(config) : Path.of(System.getProperty("user.home"), ".config");
        return base.resolve("saccade").resolve("pcp-trust");
    }

    public Path directory() {
        return directory;
    }

    /** Copies the PEM key in {@code keyFile} into the directory; returns its fingerprint. */
    public String add(final Path keyFile) throws IOException {
        final PublicKey key;
        try {
            key = readKey(Files.readString(keyFile, StandardCharsets.US_ASCII));
        } catch (final GeneralSecurityException | IllegalArgumentException e) {
            throw new IOException(keyFile + " is not a PEM Ed25519 public key (-----BEGIN PUBLIC KEY-----): " + e.getMessage(), e);
        }
        ensureDirectory();
        final String fingerprint = fingerprint(key);
        final Path target = directory.resolve(fingerprint + SUFFIX);
        final Path temporary = directory.resolve(fingerprint + SUFFIX + ".tmp");
        Files.deleteIfExists(temporary);
        Files.createFile(temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(temporary, pem(key), StandardCharsets.US_ASCII, StandardOpenOption.WRITE);
        Files.move(temporary, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
            java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return fingerprint;
    }

    /** Removes a key by fingerprint; {@code false} when there was none. */
    public boolean remove(final String fingerprint) throws IOException {
        if (!FINGERPRINT.matcher(fingerprint).matches()) {
            return false;
        }
        return Files.deleteIfExists(directory.resolve(fingerprint + SUFFIX));
    }

    /** Fingerprint to key of every readable key file; an unreadable file is skipped. */
    public Map<String, PublicKey> list() throws IOException {
        final Map<String, PublicKey> keys = new LinkedHashMap<>();
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            return keys;
        }
        RuntimeDirectory.ensure(directory); // refuses a directory others can write to
        final List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
            stream.forEach(files::add);
        }
        files.sort(null);
        for (final Path file : files) {
            try {
                final PublicKey key = readKey(Files.readString(file, StandardCharsets.US_ASCII));
                keys.put(fingerprint(key), key);
            } catch (final GeneralSecurityException | IllegalArgumentException | IOException ignore) {
                // Not a key of ours (hand-edited or truncated): it simply grants no trust.
            }
        }
        return keys;
    }

    /**
     * Verifies {@code manifest}'s signature against every trusted key; -32017 when none
     * matches, when the signature is not 64 bytes of hex or base64, or when no key is trusted.
     */
    public void verify(final Map<String, Object> manifest) throws PcpError {
        final Object encoded = manifest.get("signature");
        final byte[] signature = encoded instanceof String ? decodeSignature((String) encoded) : null;
        if (signature == null) {
            throw signatureInvalid("signature is not 64 bytes of hex or base64");
        }
        final Map<String, Object> unsigned = new LinkedHashMap<>(manifest);
        unsigned.remove("signature");
        final byte[] message = JsonTree.canonical(unsigned).getBytes(StandardCharsets.UTF_8);
        final Map<String, PublicKey> keys;
        try {
            keys = list();
        } catch (final IOException e) {
            throw signatureInvalid("trusted keys unreadable: " + e.getMessage());
        }
        if (keys.isEmpty()) {
            throw signatureInvalid("no trusted keys (saccade pcp trust add KEYFILE)");
        }
        for (final PublicKey key : keys.values()) {
            try {
                final Signature verifier = Signature.getInstance("Ed25519");
                verifier.initVerify(key);
                verifier.update(message);
                if (verifier.verify(signature)) {
                    return;
                }
            } catch (final GeneralSecurityException ignore) {
                // A key that cannot verify this signature is not the signer; try the next.
            }
        }
        throw signatureInvalid("no trusted key verifies the signature over the manifest's canonical JSON");
    }

    /** Signs {@code manifest} (without its signature member) with {@code key}: hex, as verify expects. */
    public static String sign(final Map<String, Object> manifest, final java.security.PrivateKey key)
        throws GeneralSecurityException {
        final Map<String, Object> unsigned = new LinkedHashMap<>(manifest);
        unsigned.remove("signature");
        final Signature signer = Signature.getInstance("Ed25519");
        signer.initSign(key);
        signer.update(JsonTree.canonical(unsigned).getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(signer.sign());
    }

    /** PEM text of an X.509-encoded public key. */
    public static String pem(final PublicKey key) {
        return "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(key.getEncoded())
            + "\n-----END PUBLIC KEY-----\n";
    }

    public static String fingerprint(final PublicKey key) {
        try {
            final byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getEncoded());
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    static PublicKey readKey(final String pem) throws GeneralSecurityException {
        final String body = pem.replace("-----BEGIN PUBLIC KEY-----", "").replace("-----END PUBLIC KEY-----", "")
            .replaceAll("\\s", "");
        final PublicKey key = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(body)));
        return key;
    }

    private void ensureDirectory() throws IOException {
        final Path parent = directory.getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            Files.createDirectories(parent, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        RuntimeDirectory.ensure(directory);
    }

    private static byte[] decodeSignature(final String text) {
        try {
            if (text.length() == 2 * SIGNATURE_BYTES) {
                return HexFormat.of().parseHex(text);
            }
            final byte[] bytes = Base64.getDecoder().decode(text);
            return bytes.length == SIGNATURE_BYTES ? bytes : null;
        } catch (final IllegalArgumentException e) {
            return null;
        }
    }

    private static PcpError signatureInvalid(final String reason) {
        return new PcpError(PcpError.MANIFEST_SIGNATURE_INVALID, "Manifest signature invalid: " + reason,
            JsonTree.object("reason", reason));
    }
}

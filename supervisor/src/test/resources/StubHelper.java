import java.io.BufferedReader;
import java.io.InputStreamReader;

/**
 * Stands in for the input helper in SupervisorTest (run by the JVM's source launcher): reports
 * whether the session nonce came in its environment, then echoes every line the supervisor
 * writes on its stdin, to stdout (the supervisor's helper log).
 */
public class StubHelper {
    public static void main(final String[] args) throws Exception {
        final String nonce = System.getenv("SACCADE_LINK_NONCE");
        System.out.println("stub-helper pid=" + ProcessHandle.current().pid() + " nonce_length="
            + (nonce == null ? 0 : nonce.length()) + " args=" + String.join(" ", args));
        System.out.flush();
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            System.out.println("stub-helper pid=" + ProcessHandle.current().pid() + " got " + line);
            System.out.flush();
        }
    }
}

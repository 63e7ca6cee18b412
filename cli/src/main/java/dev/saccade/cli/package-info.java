/**
 * The {@code saccade} command: the picocli root {@link dev.saccade.cli.SaccadeCommand}, one class
 * per subcommand, and the process exit codes in {@link dev.saccade.cli.ExitCodes}.
 *
 * <p>Client commands: {@code observe}, {@code query} and {@code wait} (one class each) share
 * their options as mixins ({@code EndpointOptions}, {@code ScopeOptions},
 * {@code FreshnessOptions}, {@code ObserveLimitOptions}, {@code OutputOptions}), build their
 * request through the protocol flyweights in a builder per request kind
 * ({@code ObserveRequestBuilder}, {@code QueryRequestBuilder}) straight into the client's
 * request buffer, and print the completion as raw bytes or, with {@code --json}, streamed
 * through {@code CompletionJson}. Expected failures map to exit codes in
 * {@code FailureHandler}. {@code act} and {@code batch} send action batches; {@code owner run}
 * and {@code up} run the service; {@code doctor} checks the session. Still to come: the
 * {@code mcp} and {@code pcp} adapters, {@code supervisor} and {@code install}. The launcher {@code bin/saccade} of the distribution (built
 * from {@code src/main/dist}) picks the JVM flags and calls {@link dev.saccade.cli.Main}.
 */
package dev.saccade.cli;

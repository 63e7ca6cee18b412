/**
 * The {@code saccade} command: the picocli root {@link dev.saccade.cli.SaccadeCommand}, one class
 * per subcommand, and the process exit codes in {@link dev.saccade.cli.ExitCodes}.
 *
 * <p>For now the root offers only {@code --help}, {@code --version} and {@code help}; the client
 * commands (observe, query, wait, act, batch), the {@code mcp} and {@code pcp} adapters, and
 * {@code supervisor}, {@code install}, {@code doctor} and {@code up} join it as subcommands when
 * the modules they drive exist. The launcher {@code bin/saccade} of the distribution (built
 * from {@code src/main/dist}) picks the JVM flags and calls {@link dev.saccade.cli.Main}.
 */
package dev.saccade.cli;

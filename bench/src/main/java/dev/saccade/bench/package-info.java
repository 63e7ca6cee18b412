/**
 * Benchmarks of the agent endpoint; run by hand ({@code bench/run}), never by {@code mvn test}
 * or {@code verify}.
 *
 * <p>{@link dev.saccade.bench.RoundTripBench} is an HdrHistogram harness over real Unix sockets
 * in one JVM: a real owner (listener, acceptor, owner thread) against plain blocking
 * junixsocket server threads as same-run baselines (a 1 MiB echo, a 4-byte ping-pong), driven
 * by one client code path, with the series interleaved in rounds so machine noise lands on
 * both; it also counts the bytes the owner thread allocates per request. Its parts:
 * {@link dev.saccade.bench.BenchClient} (the blocking client), {@link dev.saccade.bench.BaselineServer},
 * {@link dev.saccade.bench.BenchOwner}, {@link dev.saccade.bench.InProcessService} (the service
 * with no socket, to split compute from transport), {@link dev.saccade.bench.LatencySeries},
 * {@link dev.saccade.bench.BenchRequests} and {@link dev.saccade.bench.BenchSettings}.
 *
 * <p>{@link dev.saccade.bench.ProtocolBench} is JMH over the flyweight and validator hot paths
 * and the service's serve step.
 */
package dev.saccade.bench;

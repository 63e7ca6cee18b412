# Round-trip latency of saccade mcp tool calls against a running service (not part of the build).
# Usage: python3 latency.py <bin/saccade> <agent endpoint socket> <calls per tool>
# e.g. after `saccade up --headless --apps gtk3-demo --runtime-dir /tmp/mcp-exp`.
import subprocess, time, json, sys
launcher, endpoint, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
p = subprocess.Popen([launcher, 'mcp', '--endpoint', endpoint], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
def call(obj):
    t = time.perf_counter()
    p.stdin.write((json.dumps(obj) + '\n').encode()); p.stdin.flush()
    line = p.stdout.readline()
    return time.perf_counter() - t, line
call({"jsonrpc":"2.0","id":0,"method":"initialize","params":{}})
def bench(name, args, n):
    ts = []
    for i in range(n):
        dt, line = call({"jsonrpc":"2.0","id":i+1,"method":"tools/call","params":{"name":name,"arguments":args}})
        assert b'"isError":true' not in line, line[:200]
        ts.append(dt*1e3)
    ts.sort()
    print(f"{name} {json.dumps(args)}: n={n} p50={ts[n//2]:.2f} ms p90={ts[int(n*0.9)]:.2f} ms p99={ts[int(n*0.99)]:.2f} ms max={ts[-1]:.2f} ms bytes={len(line)}")
for _ in range(2):  # first pass warms the JVM
    bench('saccade_query', {"text":"Run","role":1}, n)
    bench('saccade_observe', {"maximumTargets":10000}, n)
    bench('saccade_act', {"kind":"hover","targetId":json.loads(call({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"saccade_query","arguments":{"text":"Run"}}})[1])["result"]["structuredContent"]["targets"][0]["id"],"dryRun":True}, n)
p.stdin.close(); print("exit", p.wait())

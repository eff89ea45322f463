#!/usr/bin/env bash
# Everything CI checks, in order:  bash scripts/test.sh
#   setup -> fmt, clippy -> cargo test --workspace -> cargo build --release -> preset checks,
#   bench -> wasm golden traces -> [conformance suite on live RabbitMQ 3.10.8, 4.0.5 and
#   4.3.6, in the background (scripts/conformance.sh)] -> JS packages, the page (release, dist/) ->
#   browser tests (headless Chromium against dist/ on 127.0.0.1) -> the conformance suite's
#   verdict -> exported programs and broker costs against live brokers.
# Runs every step it can even after a failure, then exits non-zero if any step failed.
# Every section's title says when it began ([+MM:SS] since the start), and the last lines
# printed are each step's time: a run stopped from outside still shows where it was.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# What runs in the background (the conformance suite, the static server) is stopped on any exit.
live_pid=""; server_pid=""; portfile=""
cleanup() {
  # conformance.sh stops its brokers on TERM (its trap); the subshell around it goes with it.
  [ -z "$live_pid" ] || { pkill -TERM -P "$live_pid" 2>/dev/null; kill "$live_pid" 2>/dev/null; wait "$live_pid" 2>/dev/null; } || true
  [ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true
  [ -z "$portfile" ] || rm -f "$portfile"
}
trap cleanup EXIT
elapsed() { printf '+%02d:%02d' $((SECONDS / 60)) $((SECONDS % 60)); }
section() { printf '\n========== %s [%s] ==========\n' "$*" "$(elapsed)"; }
failed=(); timings=()
timed() {  # timed NAME VERDICT SECONDS: one line of the closing table
  timings+=("$(printf '%6s s  %-6s %s' "$3" "$2" "$1")")
}
step() {  # step NAME CMD...: run CMD, time it, remember a failure and carry on
  local name="$1"; shift
  section "$name"
  local t0=$SECONDS
  if "$@"; then
    echo "-- $name: ok ($((SECONDS - t0)) s)"
    timed "$name" ok $((SECONDS - t0))
  else
    local rc=$?
    echo "-- $name: FAILED (exit $rc, $((SECONDS - t0)) s)"
    timed "$name" FAILED $((SECONDS - t0))
    failed+=("$name")
    return 1
  fi
}
finish() {
  printf '\n========== step times (whole run %s) ==========\n' "$(elapsed)"
  printf '%s\n' "${timings[@]}"
  if [ "${#failed[@]}" -gt 0 ]; then
    printf '\ntest.sh: FAILED steps: %s\n' "$(IFS=,; echo "${failed[*]}")" >&2
    exit 1
  fi
}

section "setup"
t0=$SECONDS
bash scripts/setup.sh
timed "setup (scripts/setup.sh)" ok $((SECONDS - t0))
export PATH="$ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

# Habits (issue 13): formatted, and no clippy warning natively or in the app's wasm build.
step "cargo fmt --check" cargo fmt --all --check || true
step "cargo clippy" cargo clippy --workspace --all-targets -- -D warnings || true
step "cargo clippy (app and strategies panel, wasm32)" cargo clippy --target wasm32-unknown-unknown -p delaylab-app -p delaylab-strategies-view -- -D warnings || true
step "cargo test --workspace" cargo test --workspace || true
step "cargo build --release" cargo build --release || true
# Every preset's lesson as checks (issue 24), on every version its `versions` names: a
# lesson that stops being true on a version fails here instead of misleading a reader.
step "preset checks on every version they name (delaylab test)" target/release/delaylab test scenarios/*.json || true
# The engine's speed and memory (issue 27 item 6). Memory: every bench topology at
# 1,000,000 delayed messages, peak heap bytes per waiting message at most 250 (the same on
# every run: 173, 175, 214 and 223 B on 2026-12-07). Speed: the instructions per message
# under callgrind, at most 10 % over the counts of 2026-12-07 (scripts/bench-instructions.sh,
# whose header says why a count and not the CPU-time ratio to the floor fails the build:
# on a quiet host the floor runs from the L3 cache and an unchanged engine measured
# 2.1-2.9x, on a busy one 1.2-2.0x). The ratio is still measured here, best of 5, and
# printed: issue 27 asks for 1.5x (and for 2x in CI), not met on a quiet host.
for topology in dlx-per-message dlx-per-queue plugin qq-delivery-time; do
  step "engine memory: $topology x 1M (<= 250 B per waiting message; CPU ratio to the floor printed)" \
    target/release/delaylab bench --messages 1000000 --runs 5 --topology "$topology" --max-bytes 250 || true
done
step "engine speed: instructions per message under callgrind (<= 10 % over 2026-12-07's)" bash scripts/bench-instructions.sh || true
# The engine's golden traces again, compiled to wasm and run in headless Chromium
# (crates/engine-js/tests/wasm_golden.rs includes the engine's test): the browser must give
# byte-identical results. cargo runs the test through wasm-bindgen-test-runner (installed
# with wasm-bindgen-cli at Cargo.lock's version), which drives Debian's chromedriver.
# Before the brokers start: the test runs every preset in one call (18.6 s alone), and
# chromedriver gives up on a renderer silent for 30 s, which a broker booting beside it
# (test.sh then at nice 15) and other load on the machine brought about once (2026-12-07).
WASM_BINDGEN_TEST_TIMEOUT=900 CHROMEDRIVER="$(command -v chromedriver)" \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  step "engine golden traces in wasm (headless Chromium)" \
  cargo test --target wasm32-unknown-unknown -p delaylab-engine-js --test wasm_golden || true
# --- conformance, in the background: the simulation against live RabbitMQ 3.10.8, 4.0.5 and
# 4.3.6 (issues 5, 23). For each version: its own broker on 127.0.0.1 (4.0 and 4.3 in the
# chroots setup.sh installs), tests/conformance/*.json and the field's replays through
# `delaylab run --broker V` and `delaylab replay --broker V`, diffed, then a definitions
# export checked; the three versions side by side. It waits on the brokers' real time (TTLs,
# a minute's consumer timeout: 18 min of wall time one version after the other, at a load
# of 0.2-1), so it runs while the builds and the browser tests below use the cores: they run
# at nice 15 meanwhile (the brokers and the replays keep nice 0 and are scheduled first: no
# retry was needed in a run beside the whole browser suite), and the steps that time the
# broker (exported programs, costs) wait for it to finish.
live_dir="$(mktemp -d)"
section "conformance suite (live RabbitMQ 3.10.8, 4.0.5, 4.3.6): started in the background"
# (DELAYLAB_BIN: the release build above, so that it never waits on cargo's lock meanwhile.)
# Bounded: about 7 min here; a suite still running after 40 is stuck (each replay has its
# own bound, tests/conformance/run.sh), and is stopped printing how far each version got.
( t0=$SECONDS; rc=0; DELAYLAB_BIN="$ROOT/target/release/delaylab" timeout -k 120 2400 bash scripts/conformance.sh > "$live_dir/log" 2>&1 || rc=$?
  echo "$rc $((SECONDS - t0))" > "$live_dir/rc" ) &
live_pid=$!
renice -n 15 -p $$ > /dev/null 2>&1 || echo "(could not lower this script's priority: the builds compete with the brokers)"
echo "pid $live_pid; its printout follows the browser tests"
# The background suite's printout and verdict (once, where the live steps begin).
join_live() {
  [ -n "${live_pid:-}" ] || return 0
  section "conformance suite (live RabbitMQ 3.10.8, 4.0.5, 4.3.6)"
  # While it runs: its latest progress line (conformance.sh prints one a minute), every minute.
  local waited=$SECONDS
  while kill -0 "$live_pid" 2>/dev/null; do
    sleep 5
    if [ $(( (SECONDS - waited) % 60 )) -lt 5 ]; then
      echo "  [$(elapsed)] still running: $(grep -E '^-- [0-9]+ s:' "$live_dir/log" 2>/dev/null | tail -n 1)"
    fi
  done
  wait "$live_pid" 2>/dev/null || true
  live_pid=""
  cat "$live_dir/log" 2>/dev/null || true
  local rc s
  read -r rc s < "$live_dir/rc" 2>/dev/null || { rc=1; s=0; }
  if [ "$rc" = 0 ]; then echo "-- conformance suite: ok ($s s, in the background; waited for $((SECONDS - waited)) s)"; timed "conformance suite (background; waited $((SECONDS - waited)) s)" ok "$s"
  else echo "-- conformance suite: FAILED (exit $rc, $s s)"; failed+=("conformance suite"); timed "conformance suite (background)" FAILED "$s"; fi
  rm -rf "$live_dir"
  renice -n 0 -p $$ > /dev/null 2>&1 || true
}

# --- the engine as a JavaScript package (issue 15): pkg/, before the page (dist/ copies it) ---
# (also pkg-export/: the code exporter the Export code menu imports when it opens, and
# pkg-strategies/: the strategy comparison's panel, imported when it comes near the screen)
step "build-js (pkg/, pkg-export/, pkg-strategies/)" bash scripts/build-js.sh || true
step "package = native on every preset (headless Chromium)" node tests/pkg/presets.mjs || true
step "package size and wasm/native speed (headless Chromium)" node tests/pkg/bench.mjs || true
# ------------------------------------------------------------------------------------------
# dist/ must hold one app folder (scripts/dist-post.mjs: app-<content hash>/) with the
# start-up module, its JS, the chunks' loader and real wasm chunks (two builds at once in
# the same tree, e.g. a second test.sh, could leave an empty or stale one behind).
check_dist() {
  python3 - <<'PY'
import glob, gzip, os, sys
apps = glob.glob("dist/app-*/")
if len(apps) != 1:
    sys.exit(f"dist/ has not exactly one app-<hash>/ folder: {apps}")
app = apps[0]
for need in ("app.js", "app_bg.wasm", "__wasm_split.js"):
    if not os.path.isfile(app + need):
        sys.exit(f"{app}: no {need} (scripts/build-app.sh)")
wasm = sorted(glob.glob(app + "*.wasm"))
for w in wasm:
    if open(w, "rb").read(4) != b"\0asm":
        sys.exit(f"{w} is not a wasm module ({os.path.getsize(w)} bytes)")
if not any(os.path.basename(w).startswith("split_") for w in wasm):
    sys.exit(f"{app}: no split_*.wasm chunk: the app was not split (src/app/chunks.rs)")
# The modules the app imports when first needed (scripts/build-js.sh): the code exporter
# (Export code menu) and the strategy comparison's panel, each its JS and its wasm.
lazy = []
for d in ("pkg-export", "pkg-strategies"):
    files = glob.glob(f"dist/{d}/*.wasm") + glob.glob(f"dist/{d}/*.js")
    if len(files) != 2:
        sys.exit(f"dist/{d}/ is not one module and its wasm: {files}")
    lazy += files
snippets = glob.glob(app + "snippets/**/*.js", recursive=True)
for f in wasm + sorted(glob.glob(app + "*.js") + lazy + snippets):
    data = open(f, "rb").read()
    print(f"  {f}: {len(data)} bytes, {len(gzip.compress(data, 9))} gzipped")
    # The precompressed copies hosts serve (Trunk post_build hook scripts/dist-post.mjs).
    for enc in (".gz", ".br"):
        if not os.path.exists(f + enc):
            sys.exit(f"{f}: no {enc} beside it (scripts/dist-post.mjs)")
        print(f"  {f}{enc}: {os.path.getsize(f + enc)} bytes")
PY
}
# The build's own tools (the start-up module's function order for gzip: wasm-order.mjs).
step "build tools (node --test tests/build/)" node --test tests/build/ || true
# The page: what Trunk.toml describes, built by scripts/build-page.mjs (no Trunk to install:
# it took 7 min to compile on a bare machine, and the app's wasm was never its work: the
# post_build hook's, scripts/dist-post.mjs, which build-page.mjs runs the same way).
if step "the page, release (scripts/build-page.mjs dist release)" node scripts/build-page.mjs dist release; then
  check_dist || { failed+=("dist check"); join_live; finish; }
else
  join_live
  finish
fi
# The page serve.sh builds without Trunk (scripts/build-page.mjs) boots: release, smoke tests.
step "serve.sh's page, built without Trunk, boots" bash scripts/serve-check.sh || true

section "browser tests"
mkdir -p tests/artifacts
portfile="$(mktemp)"
# http.server on a port the OS picks (no race), bound to loopback only.
python3 - "$ROOT/dist" "$portfile" > tests/artifacts/http-server.log 2>&1 <<'PY' &
import functools, http.server, sys
directory, portfile = sys.argv[1], sys.argv[2]
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=directory)
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
with open(portfile, "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
PY
server_pid=$!
for _ in $(seq 1 100); do [ -s "$portfile" ] && break; sleep 0.1; done
port="$(cat "$portfile")"
[ -n "$port" ] || { echo "could not start the static server (see tests/artifacts/http-server.log)"; exit 1; }
echo "serving dist/ at http://127.0.0.1:${port}/ (pid $server_pid)"
t0=$SECONDS
# Only a failed test's page is saved (tests/artifacts/*.png): two full-page shots a test.
# Two tests at a time (the files that measure time run alone afterwards): 4 min 48 s
# instead of 6 min 25 s for the 150 tests on an idle machine, none failing.
if BASE_URL="http://127.0.0.1:${port}/" DELAYLAB_SCREENSHOTS=failed DELAYLAB_BROWSER_JOBS=2 node tests/browser/run.mjs; then
  browser_rc=0
else
  browser_rc=$?
  failed+=("browser tests")
fi
kill "$server_pid" 2>/dev/null || true
wait "$server_pid" 2>/dev/null || true
server_pid=""; rm -f "$portfile"
# On success nothing is printed after the runner's closing "N passed, M failed" line.
if [ "$browser_rc" = 0 ]; then timed "browser tests" ok $((SECONDS - t0))
else echo "-- browser tests: FAILED (exit $browser_rc, $((SECONDS - t0)) s)" >&2; timed "browser tests" FAILED $((SECONDS - t0)); fi

join_live
# Exported programs (delaylab export code: Python, Java, Go, Node.js) run against their own
# live broker and diffed with the simulation (issue 14).
step "exported programs vs simulation (live RabbitMQ)" bash scripts/export-check.sh || true
# x-opt-delivery-time before 4.4 (issue 27): the exported programs on the live 4.3.6 too.
step "exported programs vs simulation: x-opt-delivery-time on live RabbitMQ 4.3.6" bash scripts/export-check.sh --broker 4.3 tests/conformance/v34-delivery-time-ignored.json:1 || true
# The measured cost model against live brokers (issues 16, 23): on 3.10.8 (classic queues)
# and on 4.3.6 (quorum queues), calibrate, then the workloads of tests/costs/ and
# tests/costs/quorum/ simulated with the calibrated costs and replayed live; drain time and
# lateness p50/p99 within +-35 % (and the time beyond the rules', except where
# tests/costs/advisory.txt says why not). A workload that differs is calibrated and replayed again,
# up to four attempts (below); about 8 min on an idle machine, bounded to 25 min.
# Four attempts here (DELAYLAB_RETRIES=3): a live drain of the same workload varies by
# +-20 % from one run to the next (3.10.8: 1.13 s and 1.56 s minutes apart), and the model,
# calibrated through calibrate's client, leans fast on a no-ack burst (0.59-0.81 of a
# replay's drain; not yet explained: not the replay's recording, how long the burst
# waited or the connections, which were each measured).
step "broker costs vs live brokers (3.10, 4.3)" env DELAYLAB_RETRIES=3 timeout -k 10 1500 bash scripts/costs-check.sh || true

finish

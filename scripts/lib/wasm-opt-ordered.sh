# wasm-opt on a module in place, its functions first ordered so that alike bodies sit
# side by side (scripts/wasm-order.mjs: gzip finds their repeats only within 32 KB; the
# app's start-up module 471.0 -> 452.9 KB as dist/ serves it), an order wasm-opt's
# --reorder-functions-by-name puts in and its other passes keep. Sourced by
# scripts/build-app.sh and scripts/build-js.sh (ROOT must be set; node and wasm-opt on PATH).
wasm_opt_ordered() {   # wasm_opt_ordered FILE.wasm WASM_OPT_FLAG...
  local wasm="$1"; shift
  node "$ROOT/scripts/wasm-order.mjs" "$wasm" "$wasm.ordered"
  wasm-opt --reorder-functions-by-name "$@" "$wasm.ordered" -o "$wasm"
  rm "$wasm.ordered"
}

#!/usr/bin/env python3
"""Compare a simulated run (`delaylab run --costs FILE`) with the same scenario replayed on
a live broker (`delaylab replay`): drain time and lateness p50 / p99 must agree within a
relative tolerance (default 35 %).

    python3 scripts/costs_compare.py SIM.json LIVE.json [--tolerance 0.35]

Lateness is measured as broker-costs.md measures it: delivery time - (publish time +
the message's own expiration, read from x-death's original-expiration). Drain time is
the last delivery's time minus the first's. Exit 0 agree, 1 differ, 2 bad input.
"""
import json
import sys


def figures(path):
    with open(path) as f:
        r = json.load(f)
    late, times = [], []
    for d in r["deliveries"]:
        times.append(d["delivered_at_ms"])
        deaths = d.get("headers", {}).get("x-death") or []
        exp = deaths[0].get("original-expiration") if deaths else None
        if exp is None or d.get("published_at_ms") is None:
            continue
        late.append(d["delivered_at_ms"] - (d["published_at_ms"] + int(exp)))
    if not times or not late:
        sys.exit(f"{path}: no dead-lettered deliveries")
    late.sort()

    def pct(p):
        return late[min(len(late) - 1, max(0, -(-len(late) * p // 100) - 1))]

    return {"deliveries": len(times), "drain_ms": max(times) - min(times),
            "p50_ms": pct(50), "p99_ms": pct(99)}


def main():
    args = sys.argv[1:]
    tol = 0.35
    if "--tolerance" in args:
        i = args.index("--tolerance")
        tol = float(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    sim, live = figures(args[0]), figures(args[1])
    ok = sim["deliveries"] == live["deliveries"]
    print(f"  {'figure':<11} {'simulated':>10} {'live':>10}  ratio")
    print(f"  {'deliveries':<11} {sim['deliveries']:>10} {live['deliveries']:>10}  "
          f"{'same' if ok else 'DIFFERENT'}")
    for k in ("drain_ms", "p50_ms", "p99_ms"):
        s, l = sim[k], live[k]
        ratio = s / l if l else (1.0 if s == 0 else float("inf"))
        inside = abs(ratio - 1) <= tol
        ok &= inside
        print(f"  {k:<11} {s:>10} {l:>10}  {ratio:5.2f} {'ok' if inside else 'OUTSIDE +-%d %%' % round(tol * 100)}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

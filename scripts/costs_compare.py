#!/usr/bin/env python3
"""Compare a simulated run (`delaylab run --costs FILE`) with the same scenario replayed on
a live broker (`delaylab replay`): drain time and lateness p50 / p99 must agree within a
relative tolerance (default 35 %).

    python3 scripts/costs_compare.py SIM.json LIVE.json [--ideal IDEAL.json] [--tolerance 0.35]
        [--advisory KEY[,KEY...] --why TEXT]

Lateness is measured as broker-costs.md measures it: delivery time - (publish time +
the message's own expiration, read from x-death's original-expiration). Drain time is
the last delivery's time minus the first's.

With --ideal (the same scenario run with `--costs ideal`: the rules alone, every step
free), each delivery is also measured against the time the rules deliver that message
(matched by body, the k-th delivery of a body with the k-th): `beyond rules` p50 / p99,
the time the broker's work added. Behind a long head the plain lateness is mostly the
head's wait (the rules' own), the same in both runs, so it hardly tells a fast model
from a slow one; the time beyond the rules is the broker's drain alone (a p50 of 1.5 s
in a drain of 2.2 s: the first half of the burst took 1.5 s). Both are checked.

The drain's shape is printed too (not checked): the time from the first delivery to the
first, 10th, 25th, 50th, 75th percentile and last delivery, simulated and live.

--advisory names figures that are printed with their ratio but do not decide (each with
the reason, --why, printed beside it): tests/costs/advisory.txt lists them per workload.

Exit 0 agree, 1 differ, 2 bad input.
"""
import json
import sys

# Percent points of the drain whose time since the first delivery is printed.
SHAPE = (10, 25, 50, 75, 100)


def load(path):
    try:
        with open(path) as f:
            return json.load(f)["deliveries"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"{path}: cannot read deliveries: {e}", file=sys.stderr)
        sys.exit(2)


def pct(sorted_values, p):
    """The p-th percentile by nearest rank."""
    n = len(sorted_values)
    return sorted_values[min(n - 1, max(0, -(-n * p // 100) - 1))]


def figures(path, ideal=None):
    deliveries = load(path)
    late, times = [], []
    for d in deliveries:
        times.append(d["delivered_at_ms"])
        deaths = d.get("headers", {}).get("x-death") or []
        exp = deaths[0].get("original-expiration") if deaths else None
        if exp is None or d.get("published_at_ms") is None:
            continue
        late.append(d["delivered_at_ms"] - (d["published_at_ms"] + int(exp)))
    if not times or not late:
        print(f"{path}: no dead-lettered deliveries", file=sys.stderr)
        sys.exit(2)
    late.sort()
    times.sort()
    f = {"deliveries": len(times), "drain_ms": times[-1] - times[0],
         "p50_ms": pct(late, 50), "p99_ms": pct(late, 99),
         "shape": [pct(times, p) - times[0] for p in SHAPE]}
    if ideal is not None:
        extra = beyond(deliveries, ideal, path)
        f["beyond_p50_ms"] = pct(extra, 50)
        f["beyond_p99_ms"] = pct(extra, 99)
    return f


def by_body(deliveries):
    """Each body's delivery times, in delivery order."""
    out = {}
    for d in sorted(deliveries, key=lambda d: d["delivered_at_ms"]):
        out.setdefault(d.get("body"), []).append(d["delivered_at_ms"])
    return out


def beyond(deliveries, ideal, path):
    """Per delivery: its time minus the rules' time for the same delivery (sorted)."""
    rules = by_body(ideal)
    extra = []
    for body, ts in by_body(deliveries).items():
        want = rules.get(body, [])
        if len(want) != len(ts):
            print(f"{path}: body {body!r} delivered {len(ts)} times, by the rules "
                  f"{len(want)}: not the same run", file=sys.stderr)
            sys.exit(2)
        extra.extend(t - w for t, w in zip(ts, want))
    extra.sort()
    return extra


def take(args, flag):
    """The value after `flag` in `args` (both removed), or None without it."""
    if flag not in args:
        return None
    i = args.index(flag)
    if i + 1 >= len(args):
        print(f"costs_compare.py: {flag} needs a value", file=sys.stderr)
        sys.exit(2)
    value = args[i + 1]
    del args[i:i + 2]
    return value


def main():
    args = sys.argv[1:]
    tol = float(take(args, "--tolerance") or 0.35)
    ideal_path = take(args, "--ideal")
    ideal = load(ideal_path) if ideal_path else None
    advisory = {k for k in (take(args, "--advisory") or "").split(",") if k}
    why = take(args, "--why") or ""
    if advisory and not why:
        print("costs_compare.py: --advisory needs --why (the reason a figure does not decide)",
              file=sys.stderr)
        sys.exit(2)
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sim, live = figures(args[0], ideal), figures(args[1], ideal)
    ok = sim["deliveries"] == live["deliveries"]
    print(f"  {'figure':<15} {'simulated':>10} {'live':>10}  ratio")
    print(f"  {'deliveries':<15} {sim['deliveries']:>10} {live['deliveries']:>10}  "
          f"{'same' if ok else 'DIFFERENT'}")
    keys = ["drain_ms", "p50_ms", "p99_ms"]
    if ideal is not None:
        keys += ["beyond_p50_ms", "beyond_p99_ms"]
    unknown = advisory - set(keys)
    if unknown:
        print(f"costs_compare.py: --advisory names no figure of this comparison: {sorted(unknown)}",
              file=sys.stderr)
        sys.exit(2)
    for k in keys:
        s, l = sim[k], live[k]
        ratio = s / l if l else (1.0 if s == 0 else float("inf"))
        inside = abs(ratio - 1) <= tol
        verdict = 'ok' if inside else 'OUTSIDE +-%d %%' % round(tol * 100)
        if k in advisory:
            verdict += " (advisory, not checked)"
        else:
            ok &= inside
        print(f"  {k:<15} {s:>10} {l:>10}  {ratio:5.2f} {verdict}")
    if advisory:
        print(f"  advisory: {', '.join(sorted(advisory))}: {why}")
    marks = " ".join(f"{p}%" for p in SHAPE)
    print(f"  drain shape, ms since the first delivery at {marks}:")
    print(f"    simulated {' '.join(str(x) for x in sim['shape'])}")
    print(f"    live      {' '.join(str(x) for x in live['shape'])}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

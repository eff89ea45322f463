#!/usr/bin/env python3
"""Checks that every exchange, queue and binding of a definitions.json (as written by
`delaylab export definitions`) arrived in a live broker, with the same flags and
arguments, by asking rabbitmqctl (list_exchanges / list_queues / list_bindings).

    python3 tests/conformance/check_definitions.py DEFINITIONS.json CTL

CTL is a program that runs rabbitmqctl for the broker's node ($BROKER_CTL of
scripts/lib/broker.sh: `-n NODE`, inside the node's chroot for 4.x).

Prints one line per object and exits 1 if anything is missing or different."""
import json
import subprocess
import sys
import time


def ctl(program, *args):
    out = subprocess.run([program, "-q", *args, "--formatter", "json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


INT_TYPES = {"byte", "short", "signedint", "long", "unsignedbyte", "unsignedshort", "unsignedint"}


def norm_args(a):
    """rabbitmqctl 3.10 prints arguments as [key, AMQP type, value] triples. A JSON
    integer must arrive as an AMQP integer type (else the broker would refuse a TTL)."""
    if isinstance(a, dict):
        return a
    out = {}
    for item in a or []:
        if isinstance(item, list) and len(item) == 3:
            key, kind, value = item
            if isinstance(value, int) and not isinstance(value, bool) and kind not in INT_TYPES:
                value = f"{value} (as {kind})"
            out[key] = value
        elif isinstance(item, list) and len(item) == 2:
            out[item[0]] = item[1]
        elif isinstance(item, dict):
            out.update(item)
    return out


def main():
    defs_path, ctl_program = sys.argv[1], sys.argv[2]
    defs = json.load(open(defs_path))
    # import_definitions returns before the import is done: poll for up to 20 s.
    for _ in range(40):
        problems, checked = check(defs, ctl_program)
        if not problems:
            break
        time.sleep(0.5)
    for p in problems:
        print(f"  definitions: {p}")
    print(f"  definitions: {checked} objects checked ({len(defs['exchanges'])} exchanges, {len(defs['queues'])} queues, "
          f"{len(defs['bindings'])} bindings), {len(problems)} problem(s)")
    return 1 if problems else 0


def check(defs, ctl_program):
    problems = []
    checked = 0

    xs = {x["name"]: x for x in ctl(ctl_program, "list_exchanges", "name", "type", "durable", "auto_delete", "internal", "arguments")}
    for want in defs["exchanges"]:
        got = xs.get(want["name"])
        checked += 1
        if got is None:
            problems.append(f"exchange {want['name']!r} is missing")
            continue
        for f in ("type", "durable", "auto_delete", "internal"):
            if got[f] != want[f]:
                problems.append(f"exchange {want['name']!r}: {f} is {got[f]!r}, exported {want[f]!r}")
        if norm_args(got["arguments"]) != want["arguments"]:
            problems.append(f"exchange {want['name']!r}: arguments {norm_args(got['arguments'])}, exported {want['arguments']}")

    qs = {q["name"]: q for q in ctl(ctl_program, "list_queues", "name", "durable", "auto_delete", "arguments")}
    for want in defs["queues"]:
        got = qs.get(want["name"])
        checked += 1
        if got is None:
            problems.append(f"queue {want['name']!r} is missing")
            continue
        for f in ("durable", "auto_delete"):
            if got[f] != want[f]:
                problems.append(f"queue {want['name']!r}: {f} is {got[f]!r}, exported {want[f]!r}")
        if norm_args(got["arguments"]) != want["arguments"]:
            problems.append(f"queue {want['name']!r}: arguments {norm_args(got['arguments'])}, exported {want['arguments']}")

    bs = ctl(ctl_program, "list_bindings", "source_name", "destination_name", "destination_kind", "routing_key", "arguments")
    for want in defs["bindings"]:
        checked += 1
        found = [b for b in bs if b["source_name"] == want["source"] and b["destination_name"] == want["destination"]
                 and b["destination_kind"] == want["destination_type"] and b["routing_key"] == want["routing_key"]]
        if not found:
            problems.append(f"binding {want['source']!r} -> {want['destination_type']} {want['destination']!r} "
                            f"({want['routing_key']!r}) is missing")
        elif not any(norm_args(b["arguments"]) == want["arguments"] for b in found):
            problems.append(f"binding {want['source']!r} -> {want['destination']!r}: arguments "
                            f"{[norm_args(b['arguments']) for b in found]}, exported {want['arguments']}")
    return problems, checked


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Probe a live RabbitMQ for the error codes and texts that delaylab reproduces.

Each case declares or publishes something the broker refuses (or accepts) and prints one
line: the case name, then `ok`, or the reply code, the scope (channel/connection) and the
reply text exactly as the broker sent it (a backslash written as \\\\, control characters as
\\n, \\r, \\t, \\xNN).
The Rust texts in crates/engine/src/amqp/{expiration,x_delay,queue_args,exchange_args}.rs
are checked against this output (tests/broker/probe_errors.out.txt).

Usage (broker on 127.0.0.1:5672, see shared/docs/toolchain.md; run as root so that the
x-delay probe can load its exchange type with rabbitmqctl):

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install pika
    /tmp/venv/bin/python tests/broker/probe_errors.py > tests/broker/probe_errors.out.txt

The delayed-message plugin is not packaged by Debian. For `x-delay` the script loads a
tiny exchange type, `x-delaylab-probe`, into the node (`--no-xdelay-probe` skips it): it
routes like `direct` after reading `x-delay` with the plugin's own parsing
(rabbit_delayed_message_utils:get_delay/1 of plugin 3.10.x: integers as is, strings with
binary_to_integer/1, floats with trunc/1), so a bad string crashes the channel process
the same way and shows how the broker reports it. It is not the plugin: it never delays.
"""

import os
import shutil
import struct
import subprocess
import sys
import tempfile

import pika
import pika.data
from pika.compat import long as amqp_long

URL = os.environ.get("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
NODE = os.environ.get("RABBITMQ_NODE", "rabbit@localhost")
PREFIX = "dl_probe_"

# pika cannot encode a Python float; send it as an AMQP double ('d'), as other clients do.
_encode_value = pika.data.encode_value


def _encode_value_with_double(pieces, value):
    if isinstance(value, float):
        pieces.append(struct.pack(">cd", b"d", value))
        return 9
    return _encode_value(pieces, value)


pika.data.encode_value = _encode_value_with_double


def show(text):
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\x%02x" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


def connect():
    return pika.BlockingConnection(pika.URLParameters(URL))


def run(name, action):
    """Runs `action(channel)` on a fresh connection and prints the outcome."""
    conn = connect()
    ch = conn.channel()
    try:
        action(ch)
        # A publish is asynchronous: a round trip makes a pending close arrive.
        ch.basic_qos(prefetch_count=0)
        outcome = "ok"
    except pika.exceptions.ChannelClosedByBroker as e:
        outcome = "%d channel | %s" % (e.reply_code, show(e.reply_text))
    except pika.exceptions.ConnectionClosedByBroker as e:
        outcome = "%d connection | %s" % (e.reply_code, show(e.reply_text))
    print("%s | %s" % (name, outcome), flush=True)
    try:
        if conn.is_open:
            conn.close()
    except Exception:
        pass


def setup(action):
    conn = connect()
    ch = conn.channel()
    action(ch)
    conn.close()


def q(name):
    return PREFIX + name


def declare_q(name, durable=True, exclusive=False, auto_delete=False, args=None):
    return lambda ch: ch.queue_declare(
        queue=q(name), durable=durable, exclusive=exclusive, auto_delete=auto_delete, arguments=args
    )


def publish(exchange, routing_key, expiration=None, headers=None):
    def act(ch):
        ch.confirm_delivery()
        ch.basic_publish(
            exchange=exchange,
            routing_key=routing_key,
            body=b"probe",
            properties=pika.BasicProperties(expiration=expiration, headers=headers),
        )

    return act


def cleanup():
    conn = connect()
    ch = conn.channel()
    for name in [
        "sink", "ttl1000", "plain", "durable", "classic_t", "quorum_t", "quorum_dl",
        "excl_redecl", "ad", "args_redecl",
    ]:
        ch.queue_delete(queue=q(name))
    for name in ["x_direct", "x_ae", "x_xdelay", "x_ad"]:
        ch.exchange_delete(exchange=q(name))
    conn.close()


XDELAY_ERL = r"""
-module(delaylab_probe_xdelay).
-include_lib("rabbit_common/include/rabbit.hrl").
-include_lib("rabbit_common/include/rabbit_framing.hrl").
%% rabbit_registry refuses (and crashes on) a module without this attribute.
-behaviour(rabbit_exchange_type).
-export([description/0, serialise_events/0, route/2, info/1, info/2, validate/1,
         validate_binding/2, create/2, delete/3, policy_changed/2, add_binding/3,
         remove_bindings/3, assert_args_equivalence/2]).
-define(D, rabbit_exchange_type_direct).
description() -> [{name, <<"x-delaylab-probe">>}, {description, <<"delaylab probe">>}].
serialise_events() -> false.
route(X, #delivery{message = #basic_message{content = #content{properties = #'P_basic'{headers = H}}}} = D) ->
    _ = get_delay_header(H),
    ?D:route(X, D).
%% As rabbit_delayed_message_utils (plugin 3.10.x) get_delay_header/1.
get_delay_header(undefined) -> {error, nodelay};
get_delay_header(H) ->
    case rabbit_misc:table_lookup(H, <<"x-delay">>) of
        {Type, Delay} ->
            case lists:member(Type, [byte, short, signedint, long, unsignedbyte, unsignedshort, unsignedint]) of
                true -> {ok, Delay};
                false ->
                    case lists:member(Type, [longstr, shortstr]) of
                        true -> {ok, binary_to_integer(Delay)};
                        false ->
                            case lists:member(Type, [decimal, double, float]) of
                                true -> {ok, trunc(Delay)};
                                false -> {error, nodelay}
                            end
                    end
            end;
        _ -> {error, nodelay}
    end.
info(X) -> ?D:info(X).
info(X, I) -> ?D:info(X, I).
validate(X) -> ?D:validate(X).
validate_binding(X, B) -> ?D:validate_binding(X, B).
create(T, X) -> ?D:create(T, X).
delete(T, X, B) -> ?D:delete(T, X, B).
policy_changed(A, B) -> ?D:policy_changed(A, B).
add_binding(T, X, B) -> ?D:add_binding(T, X, B).
remove_bindings(T, X, B) -> ?D:remove_bindings(T, X, B).
assert_args_equivalence(X, A) -> ?D:assert_args_equivalence(X, A).
"""


def load_xdelay_probe():
    """Compiles and registers the x-delaylab-probe exchange type; False if it cannot."""
    base = "/usr/lib/rabbitmq/lib"
    inc = None
    for root, dirs, _files in os.walk(base):
        if os.path.basename(root).startswith("rabbit_common-") and "include" in dirs:
            inc = os.path.join(root, "include")
            break
    if inc is None or shutil.which("erlc") is None:
        return False
    work = tempfile.mkdtemp(prefix="delaylab_probe_")
    os.chmod(work, 0o755)
    src = os.path.join(work, "delaylab_probe_xdelay.erl")
    with open(src, "w") as f:
        f.write(XDELAY_ERL)
    ebin = os.path.join(os.path.dirname(inc), "ebin")  # lets -include_lib find rabbit_common
    subprocess.run(["erlc", "-I", inc, "-pa", ebin, "-o", work, src], check=True)
    os.chmod(os.path.join(work, "delaylab_probe_xdelay.beam"), 0o644)
    # Registers only if the behaviour attribute is there: a failed register kills the node.
    expr = (
        'code:purge(delaylab_probe_xdelay), {module, _} = code:load_abs("%s/delaylab_probe_xdelay"), '
        'case lists:member(rabbit_exchange_type, proplists:get_value(behaviour, '
        'delaylab_probe_xdelay:module_info(attributes), [])) of '
        'true -> rabbit_registry:register(exchange, <<"x-delaylab-probe">>, delaylab_probe_xdelay); '
        'false -> no_behaviour end.' % work
    )
    r = subprocess.run(["rabbitmqctl", "-n", NODE, "eval", expr], capture_output=True, text=True)
    shutil.rmtree(work, ignore_errors=True)  # the node holds the loaded code
    return r.returncode == 0 and "ok" in r.stdout


def main():
    cleanup()
    setup(lambda ch: ch.queue_declare(queue=q("sink")))
    sink = q("sink")

    conn = connect()
    props = conn._impl.server_properties or {}
    conn.close()
    version = props.get("version", b"?")
    version = version.decode() if isinstance(version, bytes) else version
    print("# RabbitMQ %s error probe (pika %s)" % (version, pika.__version__))
    print("# format: case | ok  or  case | code scope | reply text")

    print("## expiration (basic.publish to the default exchange)")
    for s in [
        "abc", "-1", "1.5", "", " 5", "5 ", "1e3", "0x10", "++5", "+", "-",
        "315360000001", "99999999999999999999999", "-99999999999999999999999", "5\n", "5é",
        "1" + "x" * 250,
        "1" + "x" * 40, "1" + "x" * 70, "1\t" + "x" * 50, "1\n" + "x" * 70, "1\x01", "1€",
        "-" + "9" * 40, "9" * 60,
        "+5", "007", "-0", "0", "4294967296", "315360000000",
    ]:
        run("expiration %r" % s, publish("", sink, expiration=s))

    print("## publish / consume targets")
    run("publish to missing exchange", publish(q("nope"), "k"))
    run("consume from missing queue", lambda ch: ch.basic_consume(q("nope"), lambda *a: None))
    run("passive declare of missing queue", lambda ch: ch.queue_declare(queue=q("nope"), passive=True))
    run("passive declare of missing exchange", lambda ch: ch.exchange_declare(exchange=q("nope"), passive=True))

    print("## queue.declare arguments (new classic queue 'dl_probe_new')")
    new_q = [
        ("x-message-ttl -1", {"x-message-ttl": -1}),
        ("x-message-ttl '60000'", {"x-message-ttl": "60000"}),
        ("x-message-ttl 1.5", {"x-message-ttl": 1.5}),
        ("x-message-ttl true", {"x-message-ttl": True}),
        ("x-message-ttl 315360000001", {"x-message-ttl": 315360000001}),
        ("x-message-ttl long -5", {"x-message-ttl": amqp_long(-5)}),
        ("x-expires 0", {"x-expires": 0}),
        ("x-expires -1", {"x-expires": -1}),
        ("x-expires '1000'", {"x-expires": "1000"}),
        ("x-expires 315360000001", {"x-expires": 315360000001}),
        ("x-max-length -1", {"x-max-length": -1}),
        ("x-max-length '10'", {"x-max-length": "10"}),
        ("x-max-length-bytes -1", {"x-max-length-bytes": -1}),
        ("x-max-length-bytes 1.5", {"x-max-length-bytes": 1.5}),
        ("x-overflow 'bogus'", {"x-overflow": "bogus"}),
        ("x-overflow 1", {"x-overflow": 1}),
        ("x-dead-letter-routing-key without DLX", {"x-dead-letter-routing-key": "rk"}),
        ("x-dead-letter-routing-key 1 with DLX", {"x-dead-letter-exchange": "dlx", "x-dead-letter-routing-key": 1}),
        ("x-dead-letter-exchange 1", {"x-dead-letter-exchange": 1}),
        ("x-dead-letter-exchange true", {"x-dead-letter-exchange": True}),
        ("x-dead-letter-exchange 1 and x-message-ttl -1", {"x-message-ttl": -1, "x-dead-letter-exchange": 1}),
        ("x-queue-type 'bogus'", {"x-queue-type": "bogus"}),
        ("x-queue-type 1", {"x-queue-type": 1}),
        ("x-max-priority -1", {"x-max-priority": -1}),
        ("x-max-priority 256", {"x-max-priority": 256}),
        ("x-max-priority '5'", {"x-max-priority": "5"}),
        ("x-single-active-consumer 'yes'", {"x-single-active-consumer": "yes"}),
        ("x-delivery-limit 5 (classic)", {"x-delivery-limit": 5}),
        ("x-dead-letter-strategy 'at-least-once' (classic)", {"x-dead-letter-strategy": "at-least-once"}),
        ("x-max-length -1 and x-message-ttl -1", {"x-max-length": -1, "x-message-ttl": -1}),
        ("x-delivery-limit 5 then x-message-ttl -1 (classic)", {"x-delivery-limit": 5, "x-message-ttl": -1}),
        ("x-foo 'bar' (unknown)", {"x-foo": "bar"}),
        ("foo 1 (no x- prefix)", {"foo": 1}),
        ("x-queue-mode 'bogus'", {"x-queue-mode": "bogus"}),
        ("x-queue-version 3", {"x-queue-version": 3}),
        ("x-max-age '1D' (stream only)", {"x-max-age": "1D"}),
        ("x-queue-type 'bo\x01gus'", {"x-queue-type": "bo\x01gus"}),
        ("x-message-ttl None (void)", {"x-message-ttl": None}),
        ("x-message-ttl [1] (array)", {"x-message-ttl": [1]}),
        ("x-message-ttl long 9223372036854775807", {"x-message-ttl": amqp_long(9223372036854775807)}),
    ]
    for name, args in new_q:
        run("classic %s" % name, declare_q("new", args=args))
        setup(lambda ch: ch.queue_delete(queue=q("new")))

    long_name = "n" * 200
    run("classic long name + x-message-ttl long 9223372036854775807", lambda ch: ch.queue_declare(
        queue=long_name, arguments={"x-message-ttl": amqp_long(9223372036854775807)}))
    run("classic long name + x-message-ttl '60000'", lambda ch: ch.queue_declare(
        queue=long_name, arguments={"x-message-ttl": "60000"}))
    run("server-named + x-queue-type 'bogus'", lambda ch: ch.queue_declare(queue="", arguments={"x-queue-type": "bogus"}))
    run("server-named quorum", lambda ch: ch.queue_declare(queue="", durable=True, arguments={"x-queue-type": "quorum"}))

    print("## quorum queues")
    quorum = [
        ("non-durable", dict(durable=False)),
        ("exclusive", dict(exclusive=True)),
        ("auto-delete", dict(auto_delete=True)),
        ("exclusive and auto-delete", dict(exclusive=True, auto_delete=True)),
        ("x-max-priority 10", dict(args={"x-max-priority": 10})),
        ("x-message-ttl -1", dict(args={"x-message-ttl": -1})),
        ("x-delivery-limit 'abc'", dict(args={"x-delivery-limit": "abc"})),
        ("x-delivery-limit -1", dict(args={"x-delivery-limit": -1})),
        ("x-delivery-limit 5", dict(args={"x-delivery-limit": 5})),
        ("x-dead-letter-strategy 'bogus'", dict(args={"x-dead-letter-strategy": "bogus"})),
        ("x-dead-letter-strategy 1", dict(args={"x-dead-letter-strategy": 1})),
        ("x-dead-letter-strategy 'at-least-once'", dict(args={"x-dead-letter-strategy": "at-least-once"})),
        ("x-overflow 'reject-publish-dlx'", dict(args={"x-overflow": "reject-publish-dlx"})),
        ("x-queue-mode 'lazy'", dict(args={"x-queue-mode": "lazy"})),
        ("non-durable and x-max-priority 10", dict(durable=False, args={"x-max-priority": 10})),
        ("x-delivery-limit 1.5", dict(args={"x-delivery-limit": 1.5})),
        ("x-dead-letter-routing-key without DLX", dict(args={"x-dead-letter-routing-key": "rk"})),
        ("x-max-in-memory-length -1", dict(args={"x-max-in-memory-length": -1})),
    ]
    for name, kw in quorum:
        args = {"x-queue-type": "quorum"}
        args.update(kw.pop("args", {}))
        run("quorum %s" % name, declare_q("new", args=args, **kw))
        setup(lambda ch: ch.queue_delete(queue=q("new")))

    print("## streams")
    run("stream x-message-ttl 1000", declare_q("new", args={"x-queue-type": "stream", "x-message-ttl": 1000}))
    setup(lambda ch: ch.queue_delete(queue=q("new")))
    run("stream non-durable", declare_q("new", durable=False, args={"x-queue-type": "stream"}))
    setup(lambda ch: ch.queue_delete(queue=q("new")))

    print("## queue names")
    run("queue 'amq.foo'", lambda ch: ch.queue_declare(queue="amq.foo"))

    print("## queue re-declare (equivalence)")
    setup(declare_q("plain"))
    setup(declare_q("ttl1000", args={"x-message-ttl": 1000}))
    setup(declare_q("quorum_t", args={"x-queue-type": "quorum", "x-delivery-limit": 5}))
    equiv = [
        ("plain + x-message-ttl 1000", declare_q("plain", args={"x-message-ttl": 1000})),
        ("plain + x-message-ttl long 1000", declare_q("plain", args={"x-message-ttl": amqp_long(1000)})),
        ("plain + x-dead-letter-exchange 'dlx'", declare_q("plain", args={"x-dead-letter-exchange": "dlx"})),
        ("plain + x-queue-type 'classic'", declare_q("plain", args={"x-queue-type": "classic"})),
        ("plain + x-queue-type 'quorum'", declare_q("plain", args={"x-queue-type": "quorum"})),
        ("plain + x-foo 'bar'", declare_q("plain", args={"x-foo": "bar"})),
        ("plain + x-delivery-limit 5", declare_q("plain", args={"x-delivery-limit": 5})),
        ("plain + x-message-ttl -1", declare_q("plain", args={"x-message-ttl": -1})),
        ("plain + x-max-priority true", declare_q("plain", args={"x-max-priority": True})),
        ("plain + x-message-ttl 1.5", declare_q("plain", args={"x-message-ttl": 1.5})),
        ("plain durable=false", declare_q("plain", durable=False)),
        ("plain exclusive", declare_q("plain", exclusive=True)),
        ("plain auto-delete", declare_q("plain", auto_delete=True)),
        ("plain durable=false + x-message-ttl 1000", declare_q("plain", durable=False, args={"x-message-ttl": 1000})),
        ("ttl1000 without args", declare_q("ttl1000")),
        ("ttl1000 + x-message-ttl 2000", declare_q("ttl1000", args={"x-message-ttl": 2000})),
        ("ttl1000 + x-message-ttl long 1000", declare_q("ttl1000", args={"x-message-ttl": amqp_long(1000)})),
        ("ttl1000 + x-message-ttl 1000.0", declare_q("ttl1000", args={"x-message-ttl": 1000.0})),
        ("ttl1000 + x-message-ttl '1000'", declare_q("ttl1000", args={"x-message-ttl": "1000"})),
        ("ttl1000 + x-message-ttl true", declare_q("ttl1000", args={"x-message-ttl": True})),
        ("quorum_t + x-delivery-limit 6", declare_q("quorum_t", args={"x-queue-type": "quorum", "x-delivery-limit": 6})),
        ("quorum_t without args", declare_q("quorum_t")),
        ("quorum_t + x-queue-type 'quorum' only", declare_q("quorum_t", args={"x-queue-type": "quorum"})),
        ("quorum_t + x-max-priority 5", declare_q("quorum_t", args={"x-queue-type": "quorum", "x-delivery-limit": 5, "x-max-priority": 5})),
    ]
    for name, act in equiv:
        run(name, act)
    # exclusive queues belong to their connection: same connection re-declares
    def excl(ch):
        ch.queue_declare(queue=q("excl_redecl"), exclusive=True)
        ch.queue_declare(queue=q("excl_redecl"), exclusive=False)

    run("exclusive then non-exclusive on the same connection", excl)

    def excl_same(ch):
        ch.queue_declare(queue=q("excl_redecl"), exclusive=True)
        ch.queue_declare(queue=q("excl_redecl"), exclusive=True, durable=False)

    run("exclusive twice on the same connection", excl_same)

    def excl_durable(ch):
        ch.queue_declare(queue=q("excl_redecl"), exclusive=True, durable=True)
        ch.queue_declare(queue=q("excl_redecl"), exclusive=True, durable=False)

    run("exclusive durable then exclusive non-durable (same connection)", excl_durable)

    def excl_ttl(ch):
        ch.queue_declare(queue=q("excl_redecl"), exclusive=True, durable=False)
        ch.queue_declare(queue=q("excl_redecl"), exclusive=True, durable=False, arguments={"x-message-ttl": 5})

    run("exclusive then exclusive + x-message-ttl 5 (same connection)", excl_ttl)

    print("## exchange.declare")
    setup(lambda ch: ch.exchange_declare(exchange=q("x_direct"), exchange_type="direct", durable=True))
    setup(lambda ch: ch.exchange_declare(exchange=q("x_ae"), exchange_type="direct", arguments={"alternate-exchange": "a"}))
    ex = [
        ("type 'bogus'", lambda ch: ch.exchange_declare(exchange=q("x_new"), exchange_type="bogus")),
        ("type 'x-delayed-message' (plugin not loaded)", lambda ch: ch.exchange_declare(
            exchange=q("x_new"), exchange_type="x-delayed-message", arguments={"x-delayed-type": "direct"})),
        ("type 'Direct'", lambda ch: ch.exchange_declare(exchange=q("x_new"), exchange_type="Direct")),
        ("type ''", lambda ch: ch.exchange_declare(exchange=q("x_new"), exchange_type="")),
        ("type 'queue' (an existing Erlang atom)", lambda ch: ch.exchange_declare(exchange=q("x_new"), exchange_type="queue")),
        ("'amq.foo' direct", lambda ch: ch.exchange_declare(exchange="amq.foo", exchange_type="direct")),
        ("'amq.foo' bogus type", lambda ch: ch.exchange_declare(exchange="amq.foo", exchange_type="bogus")),
        ("'amq.direct' direct durable", lambda ch: ch.exchange_declare(exchange="amq.direct", exchange_type="direct", durable=True)),
        ("'amq.direct' fanout", lambda ch: ch.exchange_declare(exchange="amq.direct", exchange_type="fanout", durable=True)),
        ("'amq.direct' direct non-durable", lambda ch: ch.exchange_declare(exchange="amq.direct", exchange_type="direct")),
        ("default exchange ''", lambda ch: ch.exchange_declare(exchange="", exchange_type="direct")),
        ("x_direct as fanout", lambda ch: ch.exchange_declare(exchange=q("x_direct"), exchange_type="fanout", durable=True)),
        ("x_direct as headers", lambda ch: ch.exchange_declare(exchange=q("x_direct"), exchange_type="headers", durable=True)),
        ("x_direct non-durable", lambda ch: ch.exchange_declare(exchange=q("x_direct"), exchange_type="direct", durable=False)),
        ("x_direct auto-delete", lambda ch: ch.exchange_declare(exchange=q("x_direct"), exchange_type="direct", durable=True, auto_delete=True)),
        ("x_direct internal", lambda ch: ch.exchange_declare(exchange=q("x_direct"), exchange_type="direct", durable=True, internal=True)),
        ("x_direct + alternate-exchange 'a'", lambda ch: ch.exchange_declare(
            exchange=q("x_direct"), exchange_type="direct", durable=True, arguments={"alternate-exchange": "a"})),
        ("x_direct + x-foo 1", lambda ch: ch.exchange_declare(
            exchange=q("x_direct"), exchange_type="direct", durable=True, arguments={"x-foo": 1})),
        ("x_ae + alternate-exchange 'b'", lambda ch: ch.exchange_declare(
            exchange=q("x_ae"), exchange_type="direct", arguments={"alternate-exchange": "b"})),
        ("x_ae without args", lambda ch: ch.exchange_declare(exchange=q("x_ae"), exchange_type="direct")),
        ("new + alternate-exchange 1", lambda ch: ch.exchange_declare(
            exchange=q("x_new"), exchange_type="direct", arguments={"alternate-exchange": 1})),
        ("new direct + x-delayed-type 'bogus' (ignored by direct)", lambda ch: ch.exchange_declare(
            exchange=q("x_new"), exchange_type="direct", arguments={"x-delayed-type": "bogus"})),
    ]
    for name, act in ex:
        run("exchange %s" % name, act)
        setup(lambda ch: ch.exchange_delete(exchange=q("x_new")))

    print("## exchange.delete")
    for name in ["amq.direct", "amq.nope", ""]:
        run("exchange.delete %r" % name, lambda ch, n=name: ch.exchange_delete(exchange=n))

    print("## x-delay parsing (x-delaylab-probe exchange type, see the module docs)")
    if "--no-xdelay-probe" in sys.argv or not load_xdelay_probe():
        print("# skipped: could not load the probe exchange type")
    else:
        setup(lambda ch: ch.exchange_declare(exchange=q("x_xdelay"), exchange_type="x-delaylab-probe"))
        for v in ["700", "+5", "-5", "0", "99999999999999999999", "abc", "", " 5", "5 ", "1.5", "+", "1e3",
                  700, -5, 1.5, -0.5, True, None, [1], {"a": 1}]:
            run("x-delay %r" % (v,), publish(q("x_xdelay"), "k", headers={"x-delay": v}))
        run("X-Delay 'abc' (other case)", publish(q("x_xdelay"), "k", headers={"X-Delay": "abc"}))

    cleanup()


if __name__ == "__main__":
    main()

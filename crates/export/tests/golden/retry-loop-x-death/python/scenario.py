#!/usr/bin/env python3
# Retry loop with x-death counts: exported by delaylab (delaylab export code --lang python).
#
# A payment notification is processed from payment.work.queue; on failure the worker rejects
# it (requeue=false) and the queue dead-letters it through payment.retry.exchange into
# payment.retry.queue, which has x-message-ttl 5000 and dead-letters back through
# payment.exchange into the work queue. The worker fails three times and then gives up,
# modelled by the outcome list reject, reject, reject, ack.
#
# Watch: The message is delivered at 0:00.000, 0:05.200, 0:10.400 and 0:15.600: each round
# is 200 ms of handling plus the 5 s retry TTL. The loop is allowed although it is a cycle,
# because it contains a rejection. x-death keeps one entry per (queue, reason), newest
# first, and counts up: on the fourth delivery it reads payment.retry.queue/expired count 3
# and payment.work.queue/rejected count 3. A real consumer reads that count and stops
# retrying (parks or logs the message) instead of relying on a fixed outcome list;
# x-first-death-* stay at the first rejection.
#
# Run: ./run.sh AMQP_URL [TIME_SCALE] (python3 with pika; a test broker: the program
# declares and deletes its own objects).
#
# Every exchange and queue gets a unique prefix (dl-<random>-), so a run never touches what
# already lives on the broker; everything declared is deleted at the end. TIME_SCALE
# multiplies every duration (action times, TTLs, handle times); the report divides again, so
# its times are scenario ms. At the end the program prints what it saw as the run contract
# JSON of `delaylab run --format json`; `delaylab diff` compares the two.
#
# Nothing left out: the program does everything the scenario does.

import datetime
import decimal
import heapq
import json
import math
import os
import random
import sys
import time

import pika

NAME = "Retry loop with x-death counts"
END_MS = 60000  # the scenario's end (until)
GRACE_MS = 25  # real ms waited after it for the broker's last steps
QUEUES = ["payment.retry.queue", "payment.work.queue"]
EXCHANGES = ["payment.exchange", "payment.retry.exchange"]
LEFT_OUT = []


# ---------------------------------------------------------------- the topology

def declare_topology(run):
    run.step(lambda ch: ch.exchange_declare(n("payment.exchange"), "direct", durable=True, arguments={}))
    run.step(lambda ch: ch.exchange_declare(n("payment.retry.exchange"), "direct", durable=True, arguments={}))
    run.step(lambda ch: ch.queue_declare(n("payment.work.queue"), durable=True, arguments={
        # x-dead-letter-exchange: where expired, rejected and overflowed messages are
        # republished.
        "x-dead-letter-exchange": n("payment.retry.exchange"),
        # x-dead-letter-routing-key: replaces the message's routing key when it is
        # dead-lettered.
        "x-dead-letter-routing-key": "payment.retry",
    }))
    # A wait queue: no consumer reads it, on purpose. Messages sit here until their TTL runs
    # out, then the broker dead-letters them to the exchange below. Only the message at the
    # head of a queue expires, so a short TTL waits behind a long one (head-of-line
    # blocking).
    run.step(lambda ch: ch.queue_declare(n("payment.retry.queue"), durable=True, arguments={
        # x-message-ttl: every message in this queue expires after this many ms. An integer:
        # the string "60000" is refused with 406 PRECONDITION_FAILED.
        "x-message-ttl": ms(5000),
        "x-dead-letter-exchange": n("payment.exchange"),
        "x-dead-letter-routing-key": "payment.notify",
    }))
    run.step(lambda ch: ch.queue_bind(n("payment.work.queue"), n("payment.exchange"), routing_key="payment.notify", arguments={}))
    run.step(lambda ch: ch.queue_bind(n("payment.retry.queue"), n("payment.retry.exchange"), routing_key="payment.retry", arguments={}))


# ---------------------------------------------------------------- the consumers

def start_consumers(run):
    # Manual acks: a delivered message stays unacked (and does not expire) until the
    # consumer acks, rejects or nacks it.
    # prefetch (basic.qos): at most this many unacked messages at a time on this consumer.
    # reject with requeue=false: dead-lettered (reason rejected) if the queue has a DLX,
    # else dropped.
    run.consume(Consumer("worker", "payment.work.queue", auto_ack=False, prefetch=1, handle_ms=200, outcome=sequence("reject", "reject", "reject", "ack"),
                         from_ms=0, to_ms=None))


# ---------------------------------------------------------------- the timed actions

def timed_actions(run):
    # (at ms, is a repeat, action index, run number, what): sorted by (time, repeat run > 1,
    # action index, run): the order in which the simulation fires them
    plan = []
    # actions[0] at 0 ms
    # Publisher confirms: the broker acks each publish once it has taken it; the program
    # waits for each ack, and a mandatory message that cannot be routed comes back before
    # it.
    plan.append((0, False, 0, 1, lambda: run.publish(n("payment.exchange"), "payment.notify", "payment-7731", pika.BasicProperties(
        delivery_mode=2,
        message_id="7731"))))
    return plan


# x-delaylab-id: only for the report (when was a delivered message published); removed from
# the output.
# ---------------------------------------------------------------- the run (same in every export)

SCALE = float(os.environ.get("TIME_SCALE", "1"))
PREFIX = "dl-%08x-" % random.SystemRandom().getrandbits(32)
ID_HEADER = "x-delaylab-id"
DELIVERY_TIME = "x-opt-delivery-time"
# Scaled expiration strings -> as the scenario wrote them (for the report).
TTL_WRITTEN = {}
# Wall-clock Unix ms at the scenario's 0:00 (set when the run starts): the scenario's
# times (x-opt-delivery-time) are offsets from it.
START_MS = 0


def n(name):
    """The broker-side name of a scenario exchange or queue (built-in names stay)."""
    return name if name == "" or name.startswith("amq.") else PREFIX + name


def ms(d):
    """Scenario ms -> real ms under TIME_SCALE; a positive duration stays >= 1 ms."""
    if SCALE == 1 or d <= 0:
        return d
    return max(1, round(d * SCALE))


def ttl(expiration, read_as=None):
    """An expiration string of ms, scaled; still a string (the broker wants a shortstr).
    read_as: the ms the broker reads from a string such as "+500" or "0500"."""
    if SCALE == 1:
        return expiration
    sent = str(ms(int(expiration) if read_as is None else read_as))
    TTL_WRITTEN[sent] = expiration
    return sent


def at_ms(v):
    """x-opt-delivery-time as a long: Unix ms, the program's start plus the scenario's time."""
    return START_MS + ms(v)


def at_s(v):
    """x-opt-delivery-time as an AMQP timestamp (whole seconds), from the scenario's seconds."""
    return datetime.datetime.fromtimestamp((START_MS + ms(v * 1000)) // 1000, datetime.timezone.utc)


def header_value(key, v):
    """A delivered header as the simulation reports it: x-opt-delivery-time back in the
    scenario's time, a timestamp or a decimal in the typed form, the rest plain."""
    if isinstance(v, datetime.datetime):
        secs = v.timestamp()
        if key == DELIVERY_TIME:
            # Sent truncated to whole seconds: rounded up again (exact at TIME_SCALE 1).
            return {"$timestamp": math.ceil((secs * 1000 - START_MS) / SCALE / 1000)}
        return {"$timestamp": int(secs)}
    if isinstance(v, decimal.Decimal):
        return {"$decimal": str(v)}
    if key == DELIVERY_TIME and isinstance(v, int) and not isinstance(v, bool):
        return round((v - START_MS) / SCALE)
    return unmap(v)


def unmap(v):
    """A value the broker hands back, as JSON, with the name prefix taken off."""
    if isinstance(v, bytes):
        v = v.decode("utf-8", "replace")
    if isinstance(v, str):
        return v.replace(PREFIX, "")
    if isinstance(v, dict):
        return {k: unmap(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [unmap(x) for x in v]
    if isinstance(v, datetime.datetime):
        return int(v.timestamp())
    if isinstance(v, decimal.Decimal):
        return str(v)
    return v


def fixed(outcome):
    return lambda k: outcome


def sequence(*outcomes):
    """The k-th delivery gets the k-th outcome; the last one then repeats."""
    return lambda k: outcomes[min(k, len(outcomes) - 1)]


def weighted(*pairs):
    total = sum(w for _, w in pairs)

    def pick(k):
        u, acc = random.random() * total, 0.0
        for o, w in pairs:
            acc += w
            if u < acc:
                return o
        return pairs[-1][0]
    return pick


PROPERTY_NAMES = [("expiration", "expiration"), ("delivery_mode", "delivery_mode"),
                  ("priority", "priority"), ("message_id", "message_id"),
                  ("correlation_id", "correlation_id"), ("content_type", "content_type"),
                  ("content_encoding", "content_encoding"), ("reply_to", "reply_to"),
                  ("timestamp", "timestamp"), ("type", "type"), ("user_id", "user_id"),
                  ("app_id", "app_id")]


class Consumer:
    def __init__(self, name, queue, auto_ack, prefetch, handle_ms, outcome, from_ms, to_ms):
        self.name, self.queue, self.auto_ack, self.prefetch = name, queue, auto_ack, prefetch
        self.handle_ms, self.outcome, self.from_ms, self.to_ms = handle_ms, outcome, from_ms, to_ms
        self.ch, self.count, self.held, self.closed = None, 0, 0, False
        # The order lab's policy (None outside it): called at delivery, it returns the
        # write to run at the end of handling (then the message is acked), or None.
        self.policy = None


class Run:
    """One run: a connection for the actions (one channel in confirm mode, reopened after
    a broker error) and one for the consumers (a channel each); what was seen."""

    def __init__(self, url):
        self.params = pika.URLParameters(url)
        self.conn = pika.BlockingConnection(self.params)
        self.cconn = pika.BlockingConnection(self.params)
        self.ch = None
        self.t0 = None
        self.timers, self.seq = [], 0
        self.deliveries, self.returned, self.errors, self.nacked = [], [], [], []
        self.published_at = []
        self.consumers = []

    def now_ms(self):
        return 0 if self.t0 is None else round((time.monotonic() - self.t0) * 1000 / SCALE)

    def real(self, at_ms):
        """The monotonic time of scenario time at_ms."""
        return self.t0 + at_ms * SCALE / 1000

    def channel(self):
        if not self.conn.is_open:  # a connection error (503 ...) closed it: reconnect
            self.conn = pika.BlockingConnection(self.params)
            self.ch = None
        if self.ch is None or not self.ch.is_open:
            self.ch = self.conn.channel()
            self.ch.confirm_delivery()
        return self.ch

    def error(self, e, body=None):
        scope = "connection" if isinstance(e, pika.exceptions.ConnectionClosedByBroker) else "channel"
        rec = {"at_ms": self.now_ms(), "code": e.reply_code, "text": unmap(e.reply_text), "scope": scope}
        if body is not None:
            rec["body"] = body
        self.errors.append(rec)

    def step(self, fn, body=None):
        """Runs fn(channel); a broker error is recorded and the next step gets a new channel."""
        try:
            return fn(self.channel())
        except (pika.exceptions.ChannelClosedByBroker, pika.exceptions.ConnectionClosedByBroker) as e:
            self.error(e, body)

    def publish(self, exchange, routing_key, body, props, mandatory=False):
        """basic.publish in confirm mode: waits for the ack; a return or nack is recorded."""
        props.headers = dict(props.headers or {})
        props.headers[ID_HEADER] = str(len(self.published_at))
        self.published_at.append(self.now_ms())
        try:
            self.channel().basic_publish(exchange, routing_key, body.encode(), props, mandatory=mandatory)
        except pika.exceptions.UnroutableError as e:
            for r in e.messages:
                self.returned.append({"body": body, "at_ms": self.now_ms(),
                                      "code": r.method.reply_code, "text": r.method.reply_text})
        except pika.exceptions.NackError:
            self.nacked.append({"body": body, "at_ms": self.now_ms()})
        except (pika.exceptions.ChannelClosedByBroker, pika.exceptions.ConnectionClosedByBroker) as e:
            self.error(e, body)

    def get(self, queue):
        """basic.get with auto-ack: takes the head of the queue, if any."""
        r = self.step(lambda ch: ch.basic_get(n(queue), auto_ack=True))
        if r and r[0] is not None:
            self.record(queue, "basic.get", r[0], r[1], r[2])

    def record(self, queue, consumer, method, props, body):
        headers = {k: header_value(k, v) for k, v in (props.headers or {}).items()}
        i = headers.pop(ID_HEADER, None)
        published = self.published_at[int(i)] if i is not None and i.isdigit() and int(i) < len(self.published_at) else None
        p = {}
        for key, attr in PROPERTY_NAMES:
            v = getattr(props, attr, None)
            if v is not None:
                p[key] = unmap(v)
        if p.get("expiration") in TTL_WRITTEN:
            p["expiration"] = TTL_WRITTEN[p["expiration"]]
        for death in headers.get("x-death", []):
            if isinstance(death, dict) and death.get("original-expiration") in TTL_WRITTEN:
                death["original-expiration"] = TTL_WRITTEN[death["original-expiration"]]
        self.deliveries.append({
            "body": body.decode("utf-8", "replace"), "queue": queue, "consumer": consumer,
            "published_at_ms": published, "delivered_at_ms": self.now_ms(),
            "redelivered": bool(method.redelivered), "routing_key": unmap(method.routing_key),
            "exchange": unmap(method.exchange), "properties": p, "headers": headers})
        print("%8d ms  %-12s <- %-24s %s" % (self.now_ms(), consumer, queue, body.decode("utf-8", "replace")),
              file=sys.stderr)

    def consume(self, c):
        """basic.consume at c.from_ms; closed at c.to_ms (which requeues what it holds)."""
        self.consumers.append(c)
        if c.from_ms == 0:
            self.attach(c)

    def attach(self, c):
        try:
            ch = self.cconn.channel()
            if not c.auto_ack and c.prefetch > 0:
                ch.basic_qos(prefetch_count=min(c.prefetch, 65535))
            ch.basic_consume(n(c.queue), lambda ch_, m, p, b: self.on_message(c, ch_, m, p, b),
                             auto_ack=c.auto_ack, consumer_tag=c.name)
            c.ch = ch
        except (pika.exceptions.ChannelClosedByBroker, pika.exceptions.ConnectionClosedByBroker) as e:
            self.error(e)

    def detach(self, c):
        c.closed = True
        if c.ch is not None and c.ch.is_open:
            c.ch.close()

    def on_message(self, c, ch, method, props, body):
        self.record(c.queue, c.name, method, props, body)
        write = c.policy(c, props, body) if c.policy is not None else None
        if c.auto_ack:
            if write is not None:
                self.later(time.monotonic() + ms(c.handle_ms) / 1000, write)
            return
        outcome = "ack" if write is not None else c.outcome(c.count)
        c.count += 1
        c.held += 1

        def finish():
            if not ch.is_open:
                return
            if write is not None:
                write()
            if outcome == "ack":
                ch.basic_ack(method.delivery_tag)
            elif outcome == "reject":
                ch.basic_reject(method.delivery_tag, requeue=False)
            elif outcome == "reject_requeue":
                ch.basic_reject(method.delivery_tag, requeue=True)
            elif outcome == "nack_multiple":
                ch.basic_nack(method.delivery_tag, multiple=True, requeue=True)
            else:
                ch.basic_nack(method.delivery_tag, requeue=True)
            c.held -= 1
        self.later(time.monotonic() + ms(c.handle_ms) / 1000, finish)

    def later(self, due, fn):
        heapq.heappush(self.timers, (due, self.seq, fn))
        self.seq += 1

    def wait_until(self, due):
        """Serves deliveries and timers until the monotonic time due."""
        while True:
            while self.timers and self.timers[0][0] <= time.monotonic():
                heapq.heappop(self.timers)[2]()
            now = time.monotonic()
            if now >= due:
                return
            nxt = self.timers[0][0] if self.timers else due
            self.cconn.process_data_events(time_limit=max(0.0, min(min(due, nxt) - now, 0.005)))
            if self.conn.is_open:
                self.conn.process_data_events(time_limit=0)

    def run(self, plan, end_ms, grace_ms):
        """The timed actions in the simulation's order (ties: first runs, then position)."""
        global START_MS
        self.t0 = time.monotonic()
        START_MS = time.time_ns() // 1_000_000
        for c in self.consumers:
            if c.to_ms is not None and c.to_ms < c.from_ms:
                continue
            if c.from_ms > 0:
                self.later(self.real(c.from_ms), lambda c=c: self.attach(c))
            if c.to_ms is not None:
                self.later(self.real(max(c.to_ms, c.from_ms)), lambda c=c: self.detach(c))
        for at_ms, _, _, _, fn in sorted((p for p in plan if p[0] <= end_ms), key=lambda p: p[:4]):
            self.wait_until(self.real(at_ms))
            fn()
        self.wait_until(self.real(end_ms) + grace_ms / 1000)

    def depths(self, queues):
        """Each queue's depth at the end: ready (passive declare) and unacked (held here)."""
        out = {}
        for q in queues:
            ok = self.step(lambda ch: ch.queue_declare(n(q), passive=True))
            if ok is None:
                self.errors.pop()  # a queue that is gone is not an error of the scenario
                continue
            held = sum(c.held for c in self.consumers if c.queue == q and not c.closed)
            out[q] = {"ready": ok.method.message_count, "unacked": max(held, 0)}
        return out

    def cleanup(self, queues, exchanges):
        """Deletes every prefixed queue and exchange the scenario could have created."""
        conn = pika.BlockingConnection(self.params)
        ch = conn.channel()
        for kind, names in (("queue", queues), ("exchange", exchanges)):
            for name in names:
                if n(name) == name:
                    continue
                try:
                    if kind == "queue":
                        ch.queue_delete(n(name))
                    else:
                        ch.exchange_delete(n(name))
                except pika.exceptions.ChannelClosedByBroker:
                    ch = conn.channel()
        conn.close()
        for c in (self.cconn, self.conn):
            if c.is_open:
                c.close()

    def report(self, name, end_ms, measured_at, final, url):
        deliveries = sorted(self.deliveries, key=lambda d: d["delivered_at_ms"])
        return {"scenario": name, "deliveries": deliveries, "dropped": [], "returned": self.returned,
                "errors": self.errors, "final": {"queues": final, "delayed": {}},
                "stats": {"events": None, "end_ms": end_ms, "measured_at_ms": measured_at},
                "replay": {"client": "python pika " + pika.__version__, "prefix": PREFIX,
                           "time_scale": SCALE, "nacked": self.nacked,
                           "note": "dropped messages cannot be observed on a live broker: compare final.queues instead"}}


def main():
    url = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
    for line in LEFT_OUT:
        print("left out: " + line, file=sys.stderr)
    run = Run(url)
    try:
        declare_topology(run)
        start_consumers(run)
        run.run(timed_actions(run), END_MS, GRACE_MS)
        measured_at = run.now_ms()
        report = run.report(NAME, END_MS, measured_at, run.depths(QUEUES), url)
    finally:
        run.cleanup(QUEUES, EXCHANGES)
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()

// Order timeout: a naive consumer closes paid orders: exported by delaylab (delaylab export
// code --lang java).
//
// 40 orders over 10 minutes, each with a close-order message through a DLX wait queue
// (order.delay.queue, x-message-ttl 30m, dead-lettered to order.close.queue). The closer
// closes the order named in the message without reading it first (policy naive). Some users
// pay within 25 minutes, some at 29:59, some just after 30:00, some cancel, the rest never
// pay.
//
// Watch: Every paid order is closed when its message arrives at 30 minutes after creation:
// the orders table flags each one (money taken, order closed) and links to the message that
// did it. Canceled orders get their stock released a second time. Compare with the safe
// consumer preset: same traffic, no mistakes.
//
// Run: ./run.sh AMQP_URL [TIME_SCALE] (javac and java 17, amqp-client 5.0.0 from Debian's
// librabbitmq-client-java; a test broker: the program declares and deletes its own
// objects).
//
// Every exchange and queue gets a unique prefix (dl-<random>-), so a run never touches what
// already lives on the broker; everything declared is deleted at the end. TIME_SCALE
// multiplies every duration (action times, TTLs, handle times); the report divides again,
// so its times are scenario ms. At the end the program prints what it saw as the run
// contract JSON of `delaylab run --format json`; `delaylab diff` compares the two.
//
// Nothing left out: the program does everything the scenario does.

import com.rabbitmq.client.*;

import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;

public class Scenario {
    static final String NAME = "Order timeout: a naive consumer closes paid orders";
    /** The scenario's end (until), ms. */
    static final long END_MS = 2700000L;
    /** Real ms waited after it for the broker's last steps. */
    static final long GRACE_MS = 25L;
    static final List<String> QUEUES = List.of("order.close.queue", "order.delay.queue");
    static final List<String> EXCHANGES = List.of("order.delay.exchange", "order.dlx.exchange");
    static final List<String> LEFT_OUT = List.of();

    // ---------------------------------------------------------------- the topology

    static void declareTopology(Run run) {
        run.step(ch -> ch.exchangeDeclare(n("order.delay.exchange"), "direct", true, false, false, table()));
        run.step(ch -> ch.exchangeDeclare(n("order.dlx.exchange"), "direct", true, false, false, table()));
        // A wait queue: no consumer reads it, on purpose. Messages sit here until their TTL
        // runs out, then the broker dead-letters them to the exchange below. Only the
        // message at the head of a queue expires, so a short TTL waits behind a long one
        // (head-of-line blocking).
        run.step(ch -> ch.queueDeclare(n("order.delay.queue"), true, false, false, table(
            // x-message-ttl: every message in this queue expires after this many ms. An
            // integer: the string "60000" is refused with 406 PRECONDITION_FAILED.
            "x-message-ttl", ms(1800000),
            // x-dead-letter-exchange: where expired, rejected and overflowed messages are
            // republished.
            "x-dead-letter-exchange", n("order.dlx.exchange"),
            // x-dead-letter-routing-key: replaces the message's routing key when it is
            // dead-lettered.
            "x-dead-letter-routing-key", "order.close")));
        run.step(ch -> ch.queueDeclare(n("order.close.queue"), true, false, false, table()));
        run.step(ch -> ch.queueBind(n("order.delay.queue"), n("order.delay.exchange"), "order.create", table()));
        run.step(ch -> ch.queueBind(n("order.close.queue"), n("order.dlx.exchange"), "order.close", table()));
    }

    // ---------------------------------------------------------------- the consumers

    static void startConsumers(Run run) {
        // Manual acks: a delivered message stays unacked (and does not expire) until the
        // consumer acks, rejects or nacks it.
        // prefetch (basic.qos): at most this many unacked messages at a time on this
        // consumer.
        run.consume(new Consumer("closer", "order.close.queue", false, 10, 200L, fixed("ack"), 0L, null));
    }

    // ---------------------------------------------------------------- the order lab's scenario

    // The order lab: orders live in a real table; the close message's consumer applies the
    // scenario's policy to it.
    // naive: closes the order named in the message without reading it, so an order paid
    // meanwhile is closed (and a canceled one has its stock released twice). The message is
    // a reminder, not a fact.
    static final String POLICY = "naive";
    static final String CONSUMER = "closer";
    static final String REMINDER_CONSUMER = null;
    /** What a close message that comes before the deadline gets. */
    static final String EARLY = "republish";
    static final long TIMEOUT_MS = 1800000L;
    static final int ITEMS = 4, STOCK = 20;
    static final long START_MS = 0L;
    /** 0: no compensation scan. */
    static final long SCAN_EVERY_MS = 0L;
    static final int LAB_INDEX = 0;
    // The users: {at ms, what (0 create, 1 pay, 2 cancel), order}. Drawn by the simulation
    // (seed 6), so that this program's users do what the simulation's did; the consumer's
    // decisions are this program's own.
    static final long[][] ORDERS_TIMELINE = {
        {0L, 0, 1},
        {15000L, 0, 2},
        {30000L, 0, 3},
        {45000L, 0, 4},
        {60000L, 0, 5},
        {75000L, 0, 6},
        {90000L, 0, 7},
        {105000L, 0, 8},
        {120000L, 0, 9},
        {135000L, 0, 10},
        {150000L, 0, 11},
        {165000L, 0, 12},
        {180000L, 0, 13},
        {195000L, 0, 14},
        {210000L, 0, 15},
        {223312L, 1, 5},
        {225000L, 0, 16},
        {240000L, 0, 17},
        {255000L, 0, 18},
        {270000L, 0, 19},
        {272516L, 1, 2},
        {285000L, 0, 20},
        {300000L, 0, 21},
        {315000L, 0, 22},
        {330000L, 0, 23},
        {345000L, 0, 24},
        {360000L, 0, 25},
        {375000L, 0, 26},
        {390000L, 0, 27},
        {398780L, 1, 19},
        {405000L, 0, 28},
        {420000L, 0, 29},
        {435000L, 0, 30},
        {450000L, 0, 31},
        {465000L, 0, 32},
        {468225L, 1, 26},
        {480000L, 0, 33},
        {495000L, 0, 34},
        {510000L, 0, 35},
        {525000L, 0, 36},
        {540000L, 0, 37},
        {555000L, 0, 38},
        {562793L, 1, 29},
        {570000L, 0, 39},
        {585000L, 0, 40},
        {681539L, 1, 34},
        {894158L, 1, 23},
        {900583L, 1, 32},
        {940173L, 1, 7},
        {960961L, 2, 38},
        {976778L, 1, 22},
        {996556L, 1, 21},
        {1061823L, 2, 10},
        {1259248L, 1, 4},
        {1305015L, 2, 24},
        {1384415L, 1, 13},
        {1461874L, 1, 36},
        {1477859L, 1, 16},
        {1485259L, 1, 20},
        {1817316L, 1, 25},
        {1877635L, 1, 37},
        {1949000L, 1, 11},
        {2009000L, 1, 15},
        {2040418L, 1, 17},
        {2144000L, 1, 24},
        {2190142L, 1, 27},
        {2354000L, 1, 38},
        {2369000L, 1, 39},
        {2385841L, 1, 40},
    };

    /** A lab message: body order-<id> (close) or remind order-<id>; message_id is its
     *  idempotency key; delayMs (>= 0) replaces its own delay (an early message sent again). */
    static void labPublish(Run run, String kind, long order, long delayMs) {
        String exchange, routingKey, body;
        boolean mandatory;
        AMQP.BasicProperties.Builder props;
        if (kind.equals("close")) {
            exchange = n("order.delay.exchange"); routingKey = "order.create"; body = "order-" + order; mandatory = false;
            props = new AMQP.BasicProperties.Builder()
                .deliveryMode(2);
        } else throw new IllegalArgumentException(kind);
        props.messageId(kind + "-" + order);
        // The close message has no delay of its own (the queue's TTL delays it): sent as it is.
        run.publish(exchange, routingKey, body, props, mandatory);
    }

    // ---------------------------------------------------------------- the order lab (same in every order-lab export)

    /** One row of the orders table. */
    static final class Order {
        final long id;
        final int item;
        String status; // WAITING_PAY, PAID, CANCELED, CLOSED
        final long deadlineMs; // created + timeout (scenario ms)
        boolean stockHeld = true;

        Order(long id, int item, long deadlineMs) {
            this.id = id; this.item = item; this.deadlineMs = deadlineMs; this.status = "WAITING_PAY";
        }
    }

    /** The order lab against a table. IN MEMORY: no JDBC driver is at hand where delaylab is
     *  tested, so the tables are maps and each SQL statement is a method that does what the
     *  statement in its comment does, under one lock (as the database would serialize them).
     *  With a real database, keep the statements: the WHERE clause and the primary key are
     *  what make the policy safe, not the Java around them. */
    static final class Lab {
        final Run run;
        /** CREATE TABLE orders (id PRIMARY KEY, item, status, deadline_ms, stock_held) */
        final Map<Long, Order> orders = new TreeMap<>();
        /** CREATE TABLE stock (item PRIMARY KEY, units) */
        final long[] stock = new long[Math.max(ITEMS, 1)];
        /** CREATE TABLE handled (key PRIMARY KEY): the idempotency record */
        final Set<String> handled = new HashSet<>();
        /** When each order's deadline passes on this machine's clock (System.nanoTime). */
        final Map<Long, Long> deadlineNanos = new ConcurrentHashMap<>();
        final Map<String, Long> c = new LinkedHashMap<>();

        Lab(Run run) {
            this.run = run;
            Arrays.fill(stock, STOCK);
            for (String k : List.of("created", "paid", "payments_refused", "canceled", "closed", "closed_by_scan",
                    "closed_early", "paid_closed", "stock_double_released", "reminders_sent", "reminders_to_paid",
                    "skipped", "db_queries", "rows_scanned")) c.put(k, 0L);
        }

        synchronized void count(String k, long n) { c.merge(k, n, Long::sum); }

        /** The consumers that handle lab messages get the policy. */
        void attach() {
            for (Consumer x : run.consumers)
                if (x.name.equals(CONSUMER) || x.name.equals(REMINDER_CONSUMER)) x.policy = this::onDelivery;
        }

        /** The users (ORDERS_TIMELINE) and the scan, as timed actions after the scenario's own. */
        List<Timed> timed() {
            List<Timed> plan = new ArrayList<>();
            for (int i = 0; i < ORDERS_TIMELINE.length; i++) {
                long at = ORDERS_TIMELINE[i][0], what = ORDERS_TIMELINE[i][1], order = ORDERS_TIMELINE[i][2];
                plan.add(new Timed(at, false, LAB_INDEX, i, () -> {
                    if (what == 0) create(order, at);
                    else if (what == 1) pay(order);
                    else cancel(order);
                }));
            }
            if (SCAN_EVERY_MS > 0) {
                int k = 0;
                for (long at = START_MS + SCAN_EVERY_MS; at <= END_MS; at += SCAN_EVERY_MS) {
                    final long t = at;
                    plan.add(new Timed(at, false, LAB_INDEX + 1, k++, () -> scan(t)));
                }
            }
            return plan;
        }

        /** SELECT status FROM orders WHERE id = ? */
        synchronized String status(long order) {
            Order o = orders.get(order);
            return o == null ? null : o.status;
        }

        /** UPDATE orders SET status = ? WHERE id = ? [AND status = 'WAITING_PAY']: rows affected. */
        synchronized int update(long order, String status, boolean onlyWaiting) {
            Order o = orders.get(order);
            if (o == null || (onlyWaiting && !o.status.equals("WAITING_PAY"))) return 0;
            o.status = status;
            return 1;
        }

        void create(long order, long atMs) {
            synchronized (this) {
                int item = (int) ((order - 1) % stock.length);
                orders.put(order, new Order(order, item, atMs + TIMEOUT_MS)); // INSERT INTO orders
                stock[item]--; // UPDATE stock SET units = units - 1 WHERE item = ?
            }
            deadlineNanos.put(order, System.nanoTime() + Math.round(ms(TIMEOUT_MS) * 1e6));
            count("created", 1);
            labPublish(run, "close", order, -1);
            if (REMINDER_CONSUMER != null) labPublish(run, "remind", order, -1);
        }

        void pay(long order) {
            // A payment is accepted only while the order waits for it.
            count(update(order, "PAID", true) == 1 ? "paid" : "payments_refused", 1);
        }

        void cancel(long order) {
            if (update(order, "CANCELED", true) == 1) {
                count("canceled", 1);
                release(order, false);
            }
        }

        /** Gives the order's unit back to stock. A second release is the bug the lab shows: the
         *  unit is given back anyway and stock is overstated. */
        synchronized void release(long order, boolean closePath) {
            if (closePath) count("db_queries", 1);
            Order o = orders.get(order);
            if (!o.stockHeld) count("stock_double_released", 1);
            o.stockHeld = false;
            stock[o.item]++;
        }

        /** At delivery: the policy's read. Returns the write to run at the end of handling, or
         *  null when this delivery is not a lab message for this consumer. */
        Runnable onDelivery(Consumer x, AMQP.BasicProperties props, byte[] body) {
            String key = props.getMessageId() == null ? "" : props.getMessageId();
            int dash = key.indexOf('-');
            if (dash < 0 || !isNumber(key.substring(dash + 1))) return null;
            String kind = key.substring(0, dash);
            long order = Long.parseLong(key.substring(dash + 1));
            boolean mine = (kind.equals("close") && x.name.equals(CONSUMER))
                || (kind.equals("remind") && x.name.equals(REMINDER_CONSUMER));
            if (!mine) return null;
            String read = null;
            if (!POLICY.equals("naive")) {
                count("db_queries", 1);
                read = status(order);
            }
            long earlyNanos = deadlineNanos.getOrDefault(order, 0L) - System.nanoTime();
            final String r = read;
            if (kind.equals("remind")) return () -> remind(order, r);
            return () -> close(order, key, r, earlyNanos);
        }

        void remind(long order, String read) {
            if (read != null && !read.equals("WAITING_PAY")) {
                count("skipped", 1);
                return;
            }
            count("reminders_sent", 1);
            if ("PAID".equals(status(order))) count("reminders_to_paid", 1);
        }

        /** At the end of handling: the policy's write (one transaction, under the lock). */
        synchronized void close(long order, String key, String read, long earlyNanos) {
            boolean recorded = false;
            if (POLICY.equals("idempotent")) {
                count("db_queries", 1);
                // INSERT INTO handled (key) VALUES (?): a duplicate fails on the primary key
                if (!handled.add(key)) {
                    count("skipped", 1);
                    return;
                }
                recorded = true;
            }
            if (read != null && !read.equals("WAITING_PAY")) {
                count("skipped", 1);
                return;
            }
            if (read != null && earlyNanos > 0) {
                // Not due yet (the clocks disagree): no idempotency record (ROLLBACK), the message comes back.
                if (recorded) handled.remove(key);
                count("skipped", 1);
                if (EARLY.equals("republish")) labPublish(run, "close", order, Math.max(1, Math.round(earlyNanos / 1e6 / SCALE)));
                return;
            }
            count("db_queries", 1);
            String was = status(order); // for the report only (which status the update overwrote)
            boolean conditional = POLICY.equals("conditional_update") || POLICY.equals("idempotent");
            // conditional: UPDATE orders SET status = 'CLOSED' WHERE id = ? AND status = 'WAITING_PAY'
            // else:        UPDATE orders SET status = 'CLOSED' WHERE id = ?
            if (update(order, "CLOSED", conditional) == 0) { // 0 rows: not waiting any more, do nothing
                count("skipped", 1);
                return;
            }
            closed(order, was, false);
        }

        synchronized void closed(long order, String was, boolean byScan) {
            if ("WAITING_PAY".equals(was)) {
                count("closed", 1);
                if (byScan) count("closed_by_scan", 1);
            }
            if ("PAID".equals(was)) count("paid_closed", 1); // the mistake: money taken, order closed
            release(order, true);
        }

        /** The compensation scan: closes unpaid orders past their deadline. */
        synchronized void scan(long atMs) {
            count("db_queries", 1);
            List<Long> due = new ArrayList<>();
            for (Order o : orders.values()) {
                if (!o.status.equals("WAITING_PAY")) continue;
                count("rows_scanned", 1);
                if (o.deadlineMs <= atMs) due.add(o.id);
            }
            for (long id : due) {
                count("db_queries", 1);
                if (update(id, "CLOSED", true) == 1) closed(id, "WAITING_PAY", true);
            }
        }

        synchronized Map<String, Object> report(long endMs) {
            long never = 0;
            for (Order o : orders.values()) if (o.status.equals("WAITING_PAY") && o.deadlineMs <= endMs) never++;
            Map<String, Object> out = table("policy", POLICY, "never_closed", never, "table", "in memory (no JDBC driver here)");
            out.putAll(c);
            return out;
        }
    }

    // ---------------------------------------------------------------- the timed actions

    static List<Timed> timedActions(Run run) {
        // Sorted by (time, repeat run > 1, action index, run): the order in which the
        // simulation fires them.
        List<Timed> plan = new ArrayList<>();
        return plan;
    }

    // x-delaylab-id: only for the report (when was a delivered message published); removed
    // from the output.
    // ---------------------------------------------------------------- the run (same in every export)

    static final double SCALE = Double.parseDouble(System.getenv().getOrDefault("TIME_SCALE", "1"));
    static final String PREFIX = String.format("dl-%08x-", new java.security.SecureRandom().nextInt());
    static final String ID_HEADER = "x-delaylab-id";
    static final String DELIVERY_TIME = "x-opt-delivery-time";
    /** Scaled expiration strings -> as the scenario wrote them (for the report). */
    static final Map<String, String> TTL_WRITTEN = new ConcurrentHashMap<>();
    /** Wall-clock Unix ms at the scenario's 0:00 (set when the run starts): the scenario's
     *  times (x-opt-delivery-time) are offsets from it. */
    static volatile long startMs = 0;

    /** x-opt-delivery-time as a long, Unix ms: the program's start plus the scenario's time. */
    static Long deliveryTime(long v) {
        return startMs + ms(v);
    }

    /** x-opt-delivery-time as an AMQP timestamp (whole seconds), from the scenario's seconds. */
    static Date deliveryTimeS(long v) {
        return new Date((startMs + ms(v * 1000)) / 1000 * 1000);
    }

    /** A delivered header as the simulation reports it: x-opt-delivery-time back in the
     *  scenario's time, a timestamp or a decimal in the typed form, the rest plain. */
    static Object headerValue(String key, Object v) {
        if (v instanceof Date) {
            long secs = ((Date) v).getTime() / 1000;
            // Sent truncated to whole seconds: rounded up again (exact at TIME_SCALE 1).
            if (key.equals(DELIVERY_TIME)) secs = (long) Math.ceil((secs * 1000 - startMs) / SCALE / 1000);
            return table("$timestamp", secs);
        }
        if (v instanceof java.math.BigDecimal) return table("$decimal", ((java.math.BigDecimal) v).toPlainString());
        if (key.equals(DELIVERY_TIME) && (v instanceof Long || v instanceof Integer))
            return Math.round((((Number) v).longValue() - startMs) / SCALE);
        return plain(v);
    }

    /** The broker-side name of a scenario exchange or queue (built-in names stay). */
    static String n(String name) {
        return name.isEmpty() || name.startsWith("amq.") ? name : PREFIX + name;
    }

    /** Scenario ms -> real ms under TIME_SCALE; a positive duration stays >= 1 ms. */
    static int ms(int d) {
        return SCALE == 1 || d <= 0 ? d : (int) Math.max(1, Math.round(d * SCALE));
    }

    static long ms(long d) {
        return SCALE == 1 || d <= 0 ? d : Math.max(1, Math.round(d * SCALE));
    }

    /** An expiration string of ms, scaled; still a string (the broker wants a shortstr). */
    static String ttl(String expiration) {
        return ttl(expiration, Long.parseLong(expiration));
    }

    /** readAs: the ms the broker reads from a string such as "+500" or "0500". */
    static String ttl(String expiration, long readAs) {
        if (SCALE == 1) return expiration;
        String sent = String.valueOf(ms(readAs));
        TTL_WRITTEN.put(sent, expiration);
        return sent;
    }

    /** An argument or header table, in the order written (a consumer sees that order). */
    static Map<String, Object> table(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        return m;
    }

    static List<Object> list(Object... items) {
        return Arrays.asList(items);
    }

    interface Step { Object apply(Channel ch) throws Exception; }
    interface Action { void run() throws Exception; }
    interface Outcome { String of(int k); }
    interface Policy { Runnable onDelivery(Consumer c, AMQP.BasicProperties props, byte[] body); }

    static Outcome fixed(String o) { return k -> o; }

    /** The k-th delivery gets the k-th outcome; the last one then repeats. */
    static Outcome sequence(String... os) { return k -> os[Math.min(k, os.length - 1)]; }

    static Outcome weighted(Object... outcomesAndWeights) {
        return k -> {
            double total = 0;
            for (int i = 1; i < outcomesAndWeights.length; i += 2) total += (Double) outcomesAndWeights[i];
            double u = Math.random() * total, acc = 0;
            for (int i = 0; i + 1 < outcomesAndWeights.length; i += 2) {
                acc += (Double) outcomesAndWeights[i + 1];
                if (u < acc) return (String) outcomesAndWeights[i];
            }
            return (String) outcomesAndWeights[outcomesAndWeights.length - 2];
        };
    }

    static final class Consumer {
        final String name, queue;
        final boolean autoAck;
        final int prefetch;
        final long handleMs, fromMs;
        final Long toMs;
        final Outcome outcome;
        volatile Channel ch;
        final AtomicInteger count = new AtomicInteger(), held = new AtomicInteger();
        volatile boolean closed;
        /** The order lab's policy (null outside it): at delivery it returns the write to
         *  run at the end of handling (then the message is acked), or null. */
        volatile Policy policy;

        Consumer(String name, String queue, boolean autoAck, int prefetch, long handleMs, Outcome outcome, long fromMs, Long toMs) {
            this.name = name; this.queue = queue; this.autoAck = autoAck; this.prefetch = prefetch;
            this.handleMs = handleMs; this.outcome = outcome; this.fromMs = fromMs; this.toMs = toMs;
        }
    }

    static final class Timed {
        final long atMs;
        final boolean repeat;
        final int index, run;
        final Action what;

        Timed(long atMs, boolean repeat, int index, int run, Action what) {
            this.atMs = atMs; this.repeat = repeat; this.index = index; this.run = run; this.what = what;
        }
    }

    /** One run: a connection for the actions (one channel in confirm mode, reopened after a
     *  broker error), one for the consumers (a channel each); what was seen. */
    static final class Run {
        final ConnectionFactory factory = new ConnectionFactory();
        Connection conn, cconn;
        Channel ch;
        volatile long t0 = -1;
        final List<Map<String, Object>> deliveries = Collections.synchronizedList(new ArrayList<>());
        final List<Object> returned = Collections.synchronizedList(new ArrayList<>());
        final List<Object> errors = Collections.synchronizedList(new ArrayList<>());
        final List<Object> nacked = Collections.synchronizedList(new ArrayList<>());
        final List<Long> publishedAt = Collections.synchronizedList(new ArrayList<>());
        final List<Consumer> consumers = new ArrayList<>();
        final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();

        Run(String url) throws Exception {
            factory.setUri(url);
            conn = factory.newConnection("delaylab export (actions)");
            cconn = factory.newConnection("delaylab export (consumers)");
        }

        long nowMs() {
            return t0 < 0 ? 0 : Math.round((System.nanoTime() - t0) / 1e6 / SCALE);
        }

        /** Nanoseconds from now until scenario time atMs. */
        long until(long atMs) {
            return t0 + Math.round(atMs * SCALE * 1e6) - System.nanoTime();
        }

        Channel channel() throws Exception {
            if (!conn.isOpen()) { // a connection error (503 ...) closed it: reconnect
                conn = factory.newConnection("delaylab export (actions)");
                ch = null;
            }
            if (ch == null || !ch.isOpen()) {
                ch = conn.createChannel();
                ch.confirmSelect();
                ch.addReturnListener((code, text, exchange, routingKey, props, body) -> returned.add(table(
                    "body", new String(body, StandardCharsets.UTF_8), "at_ms", nowMs(), "code", code, "text", text)));
            }
            return ch;
        }

        void error(Throwable e, String body) {
            ShutdownSignalException sse = null;
            for (Throwable c = e; c != null && sse == null; c = c.getCause())
                if (c instanceof ShutdownSignalException) sse = (ShutdownSignalException) c;
            Map<String, Object> rec = table("at_ms", nowMs());
            Object reason = sse == null ? null : sse.getReason();
            if (reason instanceof AMQP.Channel.Close) {
                rec.put("code", ((AMQP.Channel.Close) reason).getReplyCode());
                rec.put("text", unmap(((AMQP.Channel.Close) reason).getReplyText()));
                rec.put("scope", "channel");
            } else if (reason instanceof AMQP.Connection.Close) {
                rec.put("code", ((AMQP.Connection.Close) reason).getReplyCode());
                rec.put("text", unmap(((AMQP.Connection.Close) reason).getReplyText()));
                rec.put("scope", "connection");
            } else {
                rec.put("code", 0);
                rec.put("text", "client: " + e);
                rec.put("scope", "client");
            }
            if (body != null) rec.put("body", body);
            errors.add(rec);
        }

        /** Runs s on the actions' channel; a broker error is recorded (the next step gets a new channel). */
        Object step(Step s) {
            try {
                return s.apply(channel());
            } catch (Exception e) {
                error(e, null);
                return null;
            }
        }

        /** basic.publish in confirm mode: waits for the ack; a return (312) or a nack is recorded. */
        void publish(String exchange, String routingKey, String body, AMQP.BasicProperties.Builder props, boolean mandatory) {
            AMQP.BasicProperties p = props.build();
            Map<String, Object> headers = new LinkedHashMap<>(p.getHeaders() == null ? Map.of() : p.getHeaders());
            synchronized (publishedAt) {
                headers.put(ID_HEADER, String.valueOf(publishedAt.size()));
                publishedAt.add(nowMs());
            }
            try {
                Channel c = channel();
                c.basicPublish(exchange, routingKey, mandatory, p.builder().headers(headers).build(), body.getBytes(StandardCharsets.UTF_8));
                if (!c.waitForConfirms()) nacked.add(table("body", body, "at_ms", nowMs()));
            } catch (Exception e) {
                error(e, body);
            }
        }

        /** basic.get with auto-ack: takes the head of the queue, if any. */
        void get(String queue) {
            GetResponse r = (GetResponse) step(c -> c.basicGet(n(queue), true));
            if (r != null) record(queue, "basic.get", r.getEnvelope(), r.getProps(), r.getBody());
        }

        void record(String queue, String consumer, Envelope env, AMQP.BasicProperties props, byte[] body) {
            Map<String, Object> headers = new LinkedHashMap<>();
            if (props.getHeaders() != null)
                for (Map.Entry<String, Object> e : props.getHeaders().entrySet()) headers.put(e.getKey(), headerValue(e.getKey(), e.getValue()));
            Object id = headers.remove(ID_HEADER);
            Long published = null;
            if (id instanceof String && isNumber((String) id)) {
                int i = Integer.parseInt((String) id);
                if (i < publishedAt.size()) published = publishedAt.get(i);
            }
            Map<String, Object> p = new LinkedHashMap<>();
            put(p, "expiration", props.getExpiration());
            put(p, "delivery_mode", props.getDeliveryMode());
            put(p, "priority", props.getPriority());
            put(p, "message_id", props.getMessageId());
            put(p, "correlation_id", props.getCorrelationId());
            put(p, "content_type", props.getContentType());
            put(p, "content_encoding", props.getContentEncoding());
            put(p, "reply_to", props.getReplyTo());
            put(p, "timestamp", props.getTimestamp() == null ? null : props.getTimestamp().getTime() / 1000);
            put(p, "type", props.getType());
            put(p, "user_id", props.getUserId());
            put(p, "app_id", props.getAppId());
            if (p.get("expiration") != null && TTL_WRITTEN.containsKey(p.get("expiration")))
                p.put("expiration", TTL_WRITTEN.get(p.get("expiration")));
            if (headers.get("x-death") instanceof List) {
                for (Object d : (List<?>) headers.get("x-death")) {
                    if (d instanceof Map) {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> death = (Map<String, Object>) d;
                        Object oe = death.get("original-expiration");
                        if (oe != null && TTL_WRITTEN.containsKey(oe)) death.put("original-expiration", TTL_WRITTEN.get(oe));
                    }
                }
            }
            String text = new String(body, StandardCharsets.UTF_8);
            long at = nowMs();
            deliveries.add(table("body", text, "queue", queue, "consumer", consumer, "published_at_ms", published,
                "delivered_at_ms", at, "redelivered", env.isRedeliver(), "routing_key", unmap(env.getRoutingKey()),
                "exchange", unmap(env.getExchange()), "properties", p, "headers", headers));
            // (no printf: its first call loads the formatter and delays the next delivery)
            if (t0 >= 0) System.err.println(at + " ms  " + consumer + " <- " + queue + "  " + text);
        }

        void consume(Consumer c) {
            consumers.add(c);
            if (c.fromMs == 0) attach(c);
        }

        /** basic.qos + basic.consume on a channel of its own. */
        void attach(Consumer c) {
            try {
                Channel ch = cconn.createChannel();
                if (!c.autoAck && c.prefetch > 0) ch.basicQos(Math.min(c.prefetch, 65535));
                ch.basicConsume(n(c.queue), c.autoAck, c.name, new DefaultConsumer(ch) {
                    @Override
                    public void handleDelivery(String tag, Envelope env, AMQP.BasicProperties props, byte[] body) {
                        onMessage(c, getChannel(), env, props, body);
                    }
                });
                c.ch = ch;
            } catch (Exception e) {
                error(e, null);
            }
        }

        /** Closing the consumer's channel requeues what it holds. */
        void detach(Consumer c) {
            c.closed = true;
            try {
                if (c.ch != null && c.ch.isOpen()) c.ch.close();
            } catch (Exception e) {
                // already closed by the broker
            }
        }

        void onMessage(Consumer c, Channel ch, Envelope env, AMQP.BasicProperties props, byte[] body) {
            record(c.queue, c.name, env, props, body);
            Runnable write = c.policy == null ? null : c.policy.onDelivery(c, props, body);
            if (c.autoAck) {
                if (write != null) timers.schedule(write, Math.round(c.handleMs * SCALE * 1e6), TimeUnit.NANOSECONDS);
                return;
            }
            int k = c.count.getAndIncrement();
            String outcome = write != null ? "ack" : c.outcome.of(k);
            c.held.incrementAndGet();
            long tag = env.getDeliveryTag();
            // An anonymous class, not a lambda: a lambda's first call is bootstrapped at run
            // time, long enough on a busy machine to delay the next delivery.
            timers.schedule(new Runnable() {
                @Override
                public void run() {
                    try {
                        synchronized (ch) {
                            if (!ch.isOpen()) return;
                            if (write != null) write.run();
                            if (outcome.equals("ack")) ch.basicAck(tag, false);
                            else if (outcome.equals("reject")) ch.basicReject(tag, false);
                            else if (outcome.equals("reject_requeue")) ch.basicReject(tag, true);
                            else if (outcome.equals("nack_multiple")) ch.basicNack(tag, true, true);
                            else ch.basicNack(tag, false, true);
                        }
                        c.held.decrementAndGet();
                    } catch (Exception e) {
                        // the channel went away while the message was handled: it is requeued
                    }
                }
            }, Math.round(c.handleMs * SCALE * 1e6), TimeUnit.NANOSECONDS);
        }

        /** Runs every path of a delivery once before the clock starts (publish, confirm,
         *  deliver, ack, reject, requeue) on a server-named exclusive queue: the JVM's
         *  first call of a path is slow enough (tens of ms) to make the first deliveries
         *  late. What it records is then forgotten. */
        void warmUp() {
            AMQP.BasicProperties p = new AMQP.BasicProperties.Builder().expiration("60000").headers(table(ID_HEADER, "x")).build();
            try {
                Channel wc = cconn.createChannel();
                String wq = wc.queueDeclare().getQueue(); // amq.gen-...: n() keeps it
                Consumer w = new Consumer("warm-up", wq, false, 10, 0, sequence("ack", "reject", "requeue", "ack"), 0, null);
                attach(w);
                Channel c = channel();
                for (int i = 0; i < 3; i++) c.basicPublish("", wq, false, p, new byte[0]);
                c.waitForConfirms();
                long deadline = System.nanoTime() + 2_000_000_000L;
                while (w.count.get() < 4 && System.nanoTime() < deadline) Thread.sleep(2);
                detach(w);
                wc.queueDelete(wq);
                wc.close();
            } catch (Exception e) {
                // the run itself reports what goes wrong
            }
            json(deliveries, "");
            deliveries.clear();
            errors.clear();
        }

        /** The timed actions in the simulation's order (ties: first runs, then position). */
        void run(List<Timed> plan, long endMs, long graceMs) throws InterruptedException {
            // Everything the JVM does slowly the first time (sorting with lambdas, class
            // loading) happens before the clock starts.
            plan.sort(Comparator.<Timed>comparingLong(t -> t.atMs).thenComparing(t -> t.repeat)
                .thenComparingInt(t -> t.index).thenComparingInt(t -> t.run));
            warmUp();
            t0 = System.nanoTime();
            startMs = System.currentTimeMillis();
            for (Consumer c : consumers) {
                if (c.toMs != null && c.toMs < c.fromMs) continue;
                if (c.fromMs > 0) timers.schedule(new Runnable() {
                    @Override
                    public void run() { attach(c); }
                }, until(c.fromMs), TimeUnit.NANOSECONDS);
                if (c.toMs != null) timers.schedule(new Runnable() {
                    @Override
                    public void run() { detach(c); }
                }, until(Math.max(c.toMs, c.fromMs)), TimeUnit.NANOSECONDS);
            }
            for (Timed t : plan) {
                if (t.atMs > endMs) continue;
                sleepNanos(until(t.atMs));
                try {
                    t.what.run();
                } catch (Exception e) {
                    error(e, null);
                }
            }
            sleepNanos(until(endMs) + graceMs * 1_000_000);
        }

        static void sleepNanos(long nanos) throws InterruptedException {
            if (nanos > 0) Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        }

        /** Each queue's depth at the end: ready (passive declare) and unacked (held here). */
        Map<String, Object> depths(List<String> queues) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (String q : queues) {
                try {
                    int ready = channel().queueDeclarePassive(n(q)).getMessageCount();
                    int held = 0;
                    for (Consumer c : consumers) if (c.queue.equals(q) && !c.closed) held += c.held.get();
                    out.put(q, table("ready", ready, "unacked", Math.max(held, 0)));
                } catch (Exception e) {
                    // the queue is gone (deleted by an action, or never declared)
                }
            }
            return out;
        }

        /** Deletes every prefixed queue and exchange the scenario could have created. */
        void cleanup(List<String> queues, List<String> exchanges) {
            timers.shutdownNow();
            try (Connection c = factory.newConnection("delaylab export (cleanup)")) {
                Channel ch = c.createChannel();
                for (String q : queues) {
                    if (n(q).equals(q)) continue;
                    try { ch.queueDelete(n(q)); } catch (Exception e) { ch = c.createChannel(); }
                }
                for (String x : exchanges) {
                    if (n(x).equals(x)) continue;
                    try { ch.exchangeDelete(n(x)); } catch (Exception e) { ch = c.createChannel(); }
                }
            } catch (Exception e) {
                System.err.println("cleanup: " + e + " (names start with " + PREFIX + ")");
            }
            for (Connection c : new Connection[] {cconn, conn}) {
                try { if (c.isOpen()) c.close(); } catch (Exception e) { /* gone */ }
            }
        }

        Map<String, Object> report(String name, long endMs, long measuredAt, Map<String, Object> depths) {
            List<Map<String, Object>> ds = new ArrayList<>(deliveries);
            ds.sort(Comparator.comparingLong(d -> (Long) d.get("delivered_at_ms")));
            return table("scenario", name, "deliveries", ds, "dropped", List.of(), "returned", returned,
                "errors", errors, "final", table("queues", depths, "delayed", table()),
                "stats", table("events", null, "end_ms", endMs, "measured_at_ms", measuredAt),
                "replay", table("client", "java amqp-client", "prefix", PREFIX, "time_scale", SCALE, "nacked", nacked,
                    "note", "dropped messages cannot be observed on a live broker: compare final.queues instead"));
        }
    }

    static boolean isNumber(String s) {
        if (s.isEmpty()) return false;
        for (int i = 0; i < s.length(); i++) if (!Character.isDigit(s.charAt(i))) return false;
        return true;
    }

    static void put(Map<String, Object> m, String k, Object v) {
        if (v != null) m.put(k, v instanceof String ? unmap((String) v) : v);
    }

    static String unmap(String s) {
        return s.replace(PREFIX, "");
    }

    /** A value the broker hands back, as plain Java (String, Number, Boolean, List, Map). */
    static Object plain(Object v) {
        if (v instanceof LongString || v instanceof String) return unmap(v.toString());
        if (v instanceof byte[]) return unmap(new String((byte[]) v, StandardCharsets.UTF_8));
        if (v instanceof Date) return ((Date) v).getTime() / 1000;
        if (v instanceof List) {
            List<Object> out = new ArrayList<>();
            for (Object x : (List<?>) v) out.add(plain(x));
            return out;
        }
        if (v instanceof Map) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) out.put(e.getKey().toString(), plain(e.getValue()));
            return out;
        }
        return v;
    }

    static String json(Object v, String indent) {
        if (v == null) return "null";
        if (v instanceof String) {
            StringBuilder b = new StringBuilder("\"");
            for (char c : ((String) v).toCharArray()) {
                if (c == '"' || c == '\\') b.append('\\').append(c);
                else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                else b.append(c);
            }
            return b.append('"').toString();
        }
        if (v instanceof Number || v instanceof Boolean) return v.toString();
        String in = indent + "  ";
        if (v instanceof Map) {
            Map<?, ?> m = (Map<?, ?>) v;
            if (m.isEmpty()) return "{}";
            StringBuilder b = new StringBuilder("{\n");
            Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<?, ?> e = it.next();
                b.append(in).append(json(e.getKey().toString(), in)).append(": ").append(json(e.getValue(), in));
                b.append(it.hasNext() ? ",\n" : "\n");
            }
            return b.append(indent).append('}').toString();
        }
        if (v instanceof Collection) {
            Collection<?> l = (Collection<?>) v;
            if (l.isEmpty()) return "[]";
            StringBuilder b = new StringBuilder("[\n");
            Iterator<?> it = l.iterator();
            while (it.hasNext()) b.append(in).append(json(it.next(), in)).append(it.hasNext() ? ",\n" : "\n");
            return b.append(indent).append(']').toString();
        }
        return json(v.toString(), indent);
    }

    public static void main(String[] argv) throws Exception {
        String url = argv.length > 0 ? argv[0] : System.getenv().getOrDefault("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F");
        for (String line : LEFT_OUT) System.err.println("left out: " + line);
        Run run = new Run(url);
        Lab lab = new Lab(run);
        Map<String, Object> report;
        try {
            declareTopology(run);
            startConsumers(run);
            lab.attach();
            List<Timed> plan = timedActions(run);
            plan.addAll(lab.timed());
            run.run(plan, END_MS, GRACE_MS);
            long measuredAt = run.nowMs();
            report = run.report(NAME, END_MS, measuredAt, run.depths(QUEUES));
            report.put("orders", lab.report(END_MS));
        } finally {
            run.cleanup(QUEUES, EXCHANGES);
        }
        System.out.println(json(report, ""));
        System.exit(0);
    }
}

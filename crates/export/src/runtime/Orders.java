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


// Clients runs Kafka's own Java clients for kgroups' real-Kafka tests: many
// consumers, share consumers and Kafka Streams apps in one JVM, started
// and stopped by commands on stdin, so a test pays for one JVM, not one a
// member. Run with the release's jars on the class path:
//
//	java -cp "LIBS/*" Clients.java BOOTSTRAP
//
// Commands, one a line, words separated by spaces; each is answered on
// stdout by one line "ok ..." or "error ...":
//
//	consumer NAME TOPICS [key=value...]   a KafkaConsumer subscribed to TOPICS
//	                                      (comma-separated) that polls and
//	                                      commits as its properties say
//	                                      (sleep.ms=N: N ms a record, to be
//	                                      slower than the producers;
//	                                      stall.after.ms=A stall.ms=B: A ms
//	                                      after it starts, it stops calling
//	                                      poll for B ms, as stuck processing
//	                                      does, then polls at full speed
//	                                      again; its heartbeats keep it in
//	                                      the group while max.poll.interval.ms
//	                                      is above B)
//	share NAME TOPICS [key=value...]      a KafkaShareConsumer
//	streams NAME IN OUT [key=value...]    a Kafka Streams app counting IN's
//	                                      records by key into OUT
//	close NAME                            close that client (a consumer
//	                                      leaves its group, unless static)
//	quit                                  close every client and exit
//
// Events are printed as they happen: "assigned NAME t-0,t-1", "failed NAME
// message", "stalled NAME MILLIS" and "resumed NAME MILLIS" (the stall's
// start and end, in milliseconds since the Unix epoch). The consumers'
// group.id and the rest come from key=value.
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

public class Clients {
    static String bootstrap;
    static final Map<String, Runnable> closers = new ConcurrentHashMap<>();

    static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    static Properties props(String[] words, int from) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        for (int i = from; i < words.length; i++) {
            int eq = words[i].indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("not key=value: " + words[i]);
            }
            p.put(words[i].substring(0, eq), words[i].substring(eq + 1));
        }
        return p;
    }

    static String names(Collection<TopicPartition> tps) {
        List<String> out = new ArrayList<>();
        for (TopicPartition tp : tps) {
            out.add(tp.topic() + "-" + tp.partition());
        }
        out.sort(null);
        return String.join(",", out);
    }

    static void consumer(String name, List<String> topics, Properties p) {
        // sleep.ms is ours, not Kafka's: the time the consumer takes over
        // each record, to make a consumer slower than its producers.
        long sleepMs = Long.parseLong((String) p.getOrDefault("sleep.ms", "0"));
        p.remove("sleep.ms");
        // stall.after.ms and stall.ms are ours too: stuck processing. The
        // poll loop stops calling poll() for stall.ms, stall.after.ms after
        // it started, so nothing is fetched or autocommitted meanwhile,
        // while the heartbeat thread keeps the member in its group.
        long stallAfterMs = Long.parseLong((String) p.getOrDefault("stall.after.ms", "0"));
        long stallMs = Long.parseLong((String) p.getOrDefault("stall.ms", "0"));
        p.remove("stall.after.ms");
        p.remove("stall.ms");
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p);
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(1);
        Thread th = new Thread(() -> {
            try {
                c.subscribe(topics, new ConsumerRebalanceListener() {
                    public void onPartitionsRevoked(Collection<TopicPartition> parts) {
                        say("revoked " + name + " " + names(parts));
                    }

                    public void onPartitionsAssigned(Collection<TopicPartition> parts) {
                        say("assigned " + name + " " + names(c.assignment()));
                    }
                });
                long stallAt = System.currentTimeMillis() + stallAfterMs;
                boolean stalled = stallMs <= 0;
                while (!stop.get()) {
                    if (!stalled && System.currentTimeMillis() >= stallAt) {
                        stalled = true;
                        long from = System.currentTimeMillis();
                        say("stalled " + name + " " + from);
                        while (!stop.get() && System.currentTimeMillis() < from + stallMs) {
                            Thread.sleep(100);
                        }
                        say("resumed " + name + " " + System.currentTimeMillis());
                        continue;
                    }
                    int n = c.poll(Duration.ofMillis(100)).count();
                    if (sleepMs > 0 && n > 0) {
                        Thread.sleep(sleepMs * n);
                    }
                }
            } catch (WakeupException | InterruptedException e) {
                // closing
            } catch (Exception e) {
                say("failed " + name + " " + e);
            } finally {
                try {
                    c.close(Duration.ofSeconds(10));
                } catch (Exception e) {
                    say("failed " + name + " close " + e);
                }
                done.countDown();
            }
        }, name);
        closers.put(name, () -> {
            stop.set(true);
            c.wakeup();
            await(done);
        });
        th.start();
    }

    static void share(String name, List<String> topics, Properties p) {
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        KafkaShareConsumer<byte[], byte[]> c = new KafkaShareConsumer<>(p);
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(1);
        Thread th = new Thread(() -> {
            try {
                c.subscribe(topics);
                while (!stop.get()) {
                    c.poll(Duration.ofMillis(100));
                    c.commitSync();
                }
            } catch (WakeupException e) {
                // closing
            } catch (Exception e) {
                say("failed " + name + " " + e);
            } finally {
                try {
                    c.close();
                } catch (Exception e) {
                    say("failed " + name + " close " + e);
                }
                done.countDown();
            }
        }, name);
        closers.put(name, () -> {
            stop.set(true);
            c.wakeup();
            await(done);
        });
        th.start();
    }

    static void streams(String name, String in, String out, Properties p) {
        p.putIfAbsent("application.id", name);
        p.putIfAbsent("default.key.serde", Serdes.ByteArray().getClass().getName());
        p.putIfAbsent("default.value.serde", Serdes.ByteArray().getClass().getName());
        StreamsBuilder b = new StreamsBuilder();
        b.stream(in, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .groupByKey()
                .count()
                .toStream()
                .to(out, Produced.with(Serdes.ByteArray(), Serdes.Long()));
        KafkaStreams s = new KafkaStreams(b.build(), p);
        s.setStateListener((now, before) -> say("state " + name + " " + now));
        s.setUncaughtExceptionHandler(e -> {
            say("failed " + name + " " + e);
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        closers.put(name, () -> s.close(Duration.ofSeconds(20)));
        s.start();
    }

    static void await(CountDownLatch l) {
        try {
            l.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public static void main(String[] args) throws Exception {
        bootstrap = args[0];
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        say("ready");
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split("\\s+");
            if (w.length == 0 || w[0].isEmpty()) {
                continue;
            }
            try {
                switch (w[0]) {
                    case "consumer":
                        consumer(w[1], Arrays.asList(w[2].split(",")), props(w, 3));
                        say("ok " + w[1]);
                        break;
                    case "share":
                        share(w[1], Arrays.asList(w[2].split(",")), props(w, 3));
                        say("ok " + w[1]);
                        break;
                    case "streams":
                        streams(w[1], w[2], w[3], props(w, 4));
                        say("ok " + w[1]);
                        break;
                    case "close":
                        Runnable r = closers.remove(w[1]);
                        if (r == null) {
                            say("error no client " + w[1]);
                        } else {
                            r.run();
                            say("ok " + w[1]);
                        }
                        break;
                    case "quit":
                        for (Runnable c : closers.values()) {
                            c.run();
                        }
                        say("ok quit");
                        System.exit(0);
                        break;
                    default:
                        say("error unknown command " + w[0]);
                }
            } catch (Exception e) {
                say("error " + e.toString().replace('\n', ' '));
            }
        }
        for (Runnable c : closers.values()) {
            c.run();
        }
        System.exit(0);
    }
}

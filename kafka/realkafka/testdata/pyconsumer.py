"""A consumer of kafka-python or confluent-kafka-python whose health the
real-Kafka tier judges (cmd/kgroups/realkafka_libraries_test.go).

Run with Debian's python3 (/usr/bin/python3) and its python3-kafka and
python3-confluent-kafka packages. It joins GROUP, reads TOPIC from the
oldest offset and takes SLEEP seconds over each record, on the library's
default commit behaviour: autocommit every 5 s of the records the library
handed over. It consumes until it gets SIGINT or SIGTERM, then closes the
consumer (which commits once more and leaves the group).

    pyconsumer.py --lib kafka-python|confluent --brokers ADDRS --group G
                  [--sleep SECONDS] [--max-records N] TOPIC
    pyconsumer.py --lib kafka-python|confluent --versions

--max-records bounds what one poll hands over (max_poll_records; a
confluent poll hands over one record anyway): a slow consumer holds few
records, as a slow Java consumer with a small max.poll.records does, so
that its commits keep following what it processed.
"""

import argparse
import json
import signal
import sys
import time

stop = False


def on_signal(signum, frame):
    global stop
    stop = True


def versions(lib):
    if lib == "kafka-python":
        import kafka
        return {"kafka-python": kafka.__version__}
    import confluent_kafka
    return {"confluent-kafka": confluent_kafka.version()[0],
            "librdkafka": confluent_kafka.libversion()[0]}


def run_kafka_python(a):
    import kafka
    # Only what a test needs is set: where to start, and a short session so
    # that the group settles fast. enable_auto_commit (True) and
    # auto_commit_interval_ms (5000) stay the library's.
    conf = dict(bootstrap_servers=a.brokers.split(","), group_id=a.group,
                auto_offset_reset="earliest",
                session_timeout_ms=10000, heartbeat_interval_ms=500)
    if a.max_records:
        conf["max_poll_records"] = a.max_records
    c = kafka.KafkaConsumer(a.topic, **conf)
    n = 0
    while not stop:
        # kafka-python autocommits inside poll, the positions of the
        # records the previous polls returned: those processed below.
        for records in c.poll(timeout_ms=200).values():
            for _ in records:
                time.sleep(a.sleep)
                n += 1
    print("consumed %d" % n, flush=True)
    c.close()


def run_confluent(a):
    import confluent_kafka
    # enable.auto.commit (true), auto.commit.interval.ms (5000) and
    # enable.auto.offset.store (true: a record's offset is stored for the
    # next commit when poll returns it) stay librdkafka's.
    conf = {"bootstrap.servers": a.brokers, "group.id": a.group,
            "auto.offset.reset": "earliest",
            "session.timeout.ms": 10000, "heartbeat.interval.ms": 500}
    c = confluent_kafka.Consumer(conf)
    c.subscribe([a.topic])
    n = 0
    while not stop:
        m = c.poll(0.2)
        if m is None:
            continue
        if m.error():
            print("error %s" % m.error(), file=sys.stderr, flush=True)
            continue
        time.sleep(a.sleep)
        n += 1
    print("consumed %d" % n, flush=True)
    c.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lib", required=True, choices=["kafka-python", "confluent"])
    p.add_argument("--brokers")
    p.add_argument("--group")
    p.add_argument("--sleep", type=float, default=0.0)
    p.add_argument("--max-records", type=int, default=0)
    p.add_argument("--versions", action="store_true", help="print the library versions as JSON and exit")
    p.add_argument("topic", nargs="?")
    a = p.parse_args()
    if a.versions:
        print(json.dumps(versions(a.lib)))
        return
    if not (a.brokers and a.group and a.topic):
        p.error("--brokers, --group and TOPIC are needed")
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    if a.lib == "kafka-python":
        run_kafka_python(a)
    else:
        run_confluent(a)


if __name__ == "__main__":
    main()

"""One consumer group member of kafka-python or confluent-kafka-python.

Started by kafka/rebalance's capture test (clients_capture_test.go, build
tag capture) with Debian's python3 (/usr/bin/python3) and its
python3-kafka and python3-confluent-kafka packages. It consumes until it
gets SIGINT or SIGTERM, then closes the consumer (leaving the group as the
library does on close).

    consumer.py --lib kafka-python|confluent --brokers ADDRS --group G
                --assignor range|roundrobin|sticky|cooperative-sticky
                [--client-id ID] [--instance-id ID] [--leader-log FILE]
                TOPIC...

With --leader-log, a kafka-python leader appends its assignor's inputs
(member ids, topics, partitions) to FILE as one JSON line.
"""

import argparse
import json
import signal
import sys

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
    from kafka.coordinator.assignors.range import RangePartitionAssignor
    from kafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor
    from kafka.coordinator.assignors.sticky.sticky_assignor import StickyPartitionAssignor

    base = {"range": RangePartitionAssignor,
            "roundrobin": RoundRobinPartitionAssignor,
            "sticky": StickyPartitionAssignor}.get(a.assignor)
    if base is None:
        sys.exit("--assignor %s: kafka-python has range, roundrobin and sticky" % a.assignor)
    if a.instance_id:
        sys.exit("kafka-python %s has no static membership" % kafka.__version__)

    class Logged(base):
        @classmethod
        def assign(cls, cluster, member_metadata):
            if a.leader_log:
                topics = sorted({t for m in member_metadata.values() for t in m.subscription})
                with open(a.leader_log, "a") as f:
                    f.write(json.dumps({
                        "members": sorted(member_metadata),
                        "topics": topics,
                        "partitions": {t: sorted(cluster.partitions_for_topic(t) or []) for t in topics},
                    }) + "\n")
            return super().assign(cluster, member_metadata)

    conf = dict(bootstrap_servers=a.brokers.split(","), group_id=a.group,
                partition_assignment_strategy=[Logged],
                session_timeout_ms=6000, heartbeat_interval_ms=500,
                enable_auto_commit=False)
    if a.client_id:
        conf["client_id"] = a.client_id
    c = kafka.KafkaConsumer(*a.topics, **conf)
    while not stop:
        c.poll(timeout_ms=200)
    c.close()


def run_confluent(a):
    import confluent_kafka
    conf = {"bootstrap.servers": a.brokers, "group.id": a.group,
            "partition.assignment.strategy": a.assignor,
            "session.timeout.ms": 6000, "heartbeat.interval.ms": 500,
            "enable.auto.commit": False}
    if a.client_id:
        conf["client.id"] = a.client_id
    if a.instance_id:
        conf["group.instance.id"] = a.instance_id
    c = confluent_kafka.Consumer(conf)
    c.subscribe(a.topics)
    while not stop:
        c.poll(0.2)
    c.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lib", required=True, choices=["kafka-python", "confluent"])
    p.add_argument("--brokers")
    p.add_argument("--group")
    p.add_argument("--assignor")
    p.add_argument("--client-id", default="")
    p.add_argument("--instance-id", default="")
    p.add_argument("--leader-log", default="")
    p.add_argument("--versions", action="store_true", help="print the library versions as JSON and exit")
    p.add_argument("topics", nargs="*")
    a = p.parse_args()
    if a.versions:
        print(json.dumps(versions(a.lib)))
        return
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    if a.lib == "kafka-python":
        run_kafka_python(a)
    else:
        run_confluent(a)


if __name__ == "__main__":
    main()

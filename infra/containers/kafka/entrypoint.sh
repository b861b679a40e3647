#!/bin/sh
# The broker of the local Kafka image. Like the apache/kafka image: every KAFKA_<NAME> variable
# becomes the setting <name> (lower case, _ -> .) of server.properties, except KAFKA_HEAP_OPTS;
# the storage is formatted once with CLUSTER_ID. Then the broker runs in the foreground.
set -eu
: "${CLUSTER_ID:?CLUSTER_ID is required}"
conf=/opt/kafka/config/server.properties
env | grep '^KAFKA_' | grep -v '^KAFKA_HEAP_OPTS=' | while IFS='=' read -r key value; do
  printf '%s=%s\n' "$(printf '%s' "${key#KAFKA_}" | tr 'A-Z_' 'a-z.')" "$value"
done >"$conf"
logs="$(sed -n 's/^log\.dirs=//p' "$conf")"
logs="${logs:-/var/lib/kafka/data}"
mkdir -p "$logs"
if [ ! -f "$logs/meta.properties" ]; then
  /opt/kafka/tool.sh kafka.tools.StorageTool format --ignore-formatted -t "$CLUSTER_ID" -c "$conf"
fi
# shellcheck disable=SC2086
exec java ${KAFKA_HEAP_OPTS:--Xmx512m} -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true \
  -Dkafka.logs.dir=/tmp/kafka-logs -Dlog4j2.configurationFile=/opt/kafka/config/log4j2.properties \
  -cp '/opt/kafka/libs/*' kafka.Kafka "$conf"

#!/bin/sh
# /opt/kafka/tool.sh <main-class> [args...]: one Kafka CLI tool (the /opt/kafka/bin/*.sh wrappers).
exec java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
  -Dlog4j2.configurationFile=/opt/kafka/config/tools-log4j2.properties \
  -cp '/opt/kafka/libs/*' "$@"

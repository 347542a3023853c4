#!/usr/bin/env bash
# Installs the servers the integration tests start on loopback: FerretDB (MongoDB wire protocol,
# built from the Go module proxy) and Apache Kafka (broker jars from Maven Central).
# Everything goes to a cache outside the clone, so later runs are quick; nothing is assumed there.
set -euo pipefail
CACHE="${FEEDBACK_TEST_SERVERS:-$HOME/.cache/feedback-test-servers}"
FERRETDB_VERSION=1.24.2
KAFKA_VERSION=3.9.1
mkdir -p "$CACHE/bin"

# The toolchains these builds need come from the machine's package manager when missing.
apt_install() {
  command -v apt-get >/dev/null 2>&1 || return 1
  local sudo=""
  if [ "$(id -u)" != 0 ]; then command -v sudo >/dev/null 2>&1 && sudo="sudo -n" || return 1; fi
  echo "installing $* with apt-get" >&2
  $sudo apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
command -v java >/dev/null 2>&1 || apt_install default-jre-headless || echo "could not install java" >&2
command -v mvn >/dev/null 2>&1 || apt_install maven || echo "could not install maven" >&2
command -v go >/dev/null 2>&1 || apt_install golang-go || echo "could not install go" >&2

if [ ! -x "$CACHE/bin/ferretdb" ] || ! "$CACHE/bin/ferretdb" --version 2>/dev/null | grep -q "v$FERRETDB_VERSION"; then
  if command -v go >/dev/null 2>&1; then
    echo "building FerretDB v$FERRETDB_VERSION into $CACHE/bin" >&2
    work="$(mktemp -d)"
    (cd "$work" && go mod init ferretdb-build >/dev/null 2>&1 && go mod download -json "github.com/FerretDB/FerretDB@v$FERRETDB_VERSION" > mod.json)
    src="$(sed -n 's/.*"Dir": "\(.*\)".*/\1/p' "$work/mod.json")"
    rm -rf "$CACHE/ferretdb-src" && cp -r "$src" "$CACHE/ferretdb-src" && chmod -R u+w "$CACHE/ferretdb-src"
    # The module ships without its generated version file; the binary refuses to start without it.
    echo "v$FERRETDB_VERSION" > "$CACHE/ferretdb-src/build/version/version.txt"
    (cd "$CACHE/ferretdb-src" && CGO_ENABLED=0 go build -o "$CACHE/bin/ferretdb" ./cmd/ferretdb)
    rm -rf "$work"
  else
    echo "go not found: MongoDB-adapter tests will skip" >&2
  fi
fi

KAFKA_DIR="$CACHE/kafka-$KAFKA_VERSION"
if [ ! -f "$KAFKA_DIR/.complete" ]; then
  if command -v mvn >/dev/null 2>&1 && command -v java >/dev/null 2>&1; then
    echo "fetching Apache Kafka $KAFKA_VERSION into $KAFKA_DIR" >&2
    mkdir -p "$KAFKA_DIR"
    cat > "$KAFKA_DIR/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.feedback</groupId><artifactId>kafka-runtime</artifactId><version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-reload4j</artifactId><version>1.7.36</version></dependency>
  </dependencies>
</project>
POM
    (cd "$KAFKA_DIR" && mvn -q -B dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory=libs)
    touch "$KAFKA_DIR/.complete"
  else
    echo "java/mvn not found: Kafka tests will skip" >&2
  fi
fi
echo "test servers ready in $CACHE" >&2

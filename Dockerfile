# The runner in a small container image that runs as a non-root user:
#   docker build -t review-runner .
#   docker run --rm -v "$PWD:/work" review-runner --ruleset atom --repo /work --base origin/main
# Stage 1 builds the self-contained binary with scripts/release (static RE2, tree-sitter, yaml-cpp,
# libstdc++); stage 2 is debian:bookworm-slim with only what that binary and its git-based inputs
# need at run time: libcurl, git and CA certificates. The shipped rulesets are embedded in the
# binary and also installed as files under /usr/local/share/review-action/rulesets.
FROM debian:bookworm AS build
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends sudo ca-certificates >/dev/null
COPY . /src
RUN cd /src && rm -rf build-release dist && DIST=/out BUILD_DIR=/tmp/build scripts/release

FROM debian:bookworm-slim
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends libcurl4 git ca-certificates >/dev/null \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --create-home review \
 && git config --system --add safe.directory '*'
COPY --from=build /out/review-runner-linux-* /usr/local/bin/runner
COPY rulesets/ /usr/local/share/review-action/rulesets/
USER 10001
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/runner"]
CMD ["--help"]

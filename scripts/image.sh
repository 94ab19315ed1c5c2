#!/bin/sh
# `make image`: build the image with the first container engine here that can build, docker (BuildKit) then
# podman, handing its `build` the arguments given (tags, build args, the context). ENGINE=docker or ENGINE=podman
# names the engine: that one builds, or nothing does.
#
# An engine can build when `<engine> info` answers: a docker client with no daemon behind it cannot. podman builds
# with --format docker, since its default (OCI) format drops the HEALTHCHECK.
set -eu

can_build() {
    command -v "$1" >/dev/null 2>&1 && "$1" info >/dev/null 2>&1
}

why_not() {
    if command -v "$1" >/dev/null 2>&1; then
        echo "'$1 info' fails; is its daemon or socket up?"
    else
        echo "not installed"
    fi
}

if [ -n "${ENGINE:-}" ]; then
    if ! can_build "$ENGINE"; then
        echo "make image: ENGINE=$ENGINE cannot build here: $(why_not "$ENGINE")" >&2
        echo "Without ENGINE, make image takes the first of docker and podman that can build." >&2
        exit 1
    fi
    engine=$ENGINE
    reason="ENGINE=$ENGINE"
elif can_build docker; then
    engine=docker
    reason="'docker info' answers"
elif can_build podman; then
    engine=podman
    reason="docker cannot: $(why_not docker)"
else
    {
        echo "make image: no container engine here can build:"
        echo "  docker: $(why_not docker)"
        echo "  podman: $(why_not podman)"
        echo "Start docker's daemon or install podman, or name the engine: make image ENGINE=docker|podman"
    } >&2
    exit 1
fi

case "${engine##*/}" in
    podman) set -- --format docker "$@" ;;
esac
echo "make image: building with $engine ($reason)"
DOCKER_BUILDKIT=1 exec "$engine" build "$@"

#!/usr/bin/env bash
# Prepares .carry-qt-cli/ (git-ignored): the Qt packages the CLI and the GPU tests need on the device
# machine (Qt Core and Qt Test, no GUI), 17 MB instead of .carry-qt's 32, so that a device call can
# carry it with the tree, CUTLASS and build-carry/ inside its 64 MiB. Run from the project root; it
# runs ../shared/device/prepare-carry.sh first where .carry-qt/ has no packages yet.
# Then: carry [".carry-qt-cli", ".carry-cutlass", "build-carry"] and `source .carry-qt-cli/device-env.sh`
# (after `rm -f /opt/qt6carry/.done` on a warm machine whose carried packages changed).
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
[ -n "$(ls .carry-qt/*.deb 2>/dev/null)" ] || ../shared/device/prepare-carry.sh
mkdir -p .carry-qt-cli .carry-cutlass
# qmake6 / qmake6-bin: Qt6CoreTools' CMake targets name qmake, and configuring fails without it.
for p in libqt6core6 libqt6test6 libqt6concurrent6 libqt6network6 libqt6dbus6 qt6-base-dev qt6-base-dev-tools \
         qmake6 qmake6-bin libicu72 libglib2.0-0 libdouble-conversion3 libb2-1 libpcre2-8-0 libpcre2-16-0 \
         libmount1 libselinux1 libblkid1 libffi8 libdbus-1-3; do
  cp .carry-qt/${p}_*.deb .carry-qt-cli/
done
cp .carry-qt/device-env.sh .carry-qt-cli/
cp ../shared/third_party/cutlass-4.7.0.tar.xz* .carry-cutlass/
du -sh .carry-qt-cli .carry-cutlass

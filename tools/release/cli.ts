/**
 * The release runner's entry before it moved to deploy/release: systemd units installed before the
 * move still run this file from `current` (the path unit for pushes, the timer). It runs the runner
 * from its new place. It goes once every server has reinstalled its units (docs/server-reference.md,
 * "Upgrade notes").
 */
import "../../deploy/release/cli";

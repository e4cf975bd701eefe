/**
 * The service's entry before it moved to src/site-service: systemd units installed before the move
 * still start this file from `current`. It starts the service from its new place, so that such a
 * server keeps answering after the release that ships the move. It goes once every server has
 * reinstalled its units (docs/server-reference.md, "Upgrade notes").
 */
// eslint-disable-next-line no-restricted-imports -- an entry point run by an old unit, not a module of the service
import "../../site-service/bin/site-service";

"""The table service: configuration, the state hub, the service loop and its systemd glue."""

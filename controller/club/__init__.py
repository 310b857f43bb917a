"""A club evening: each table publishes its public view to the club's MQTT broker (see README.md)."""

"""Games that speak playtester's remote-game protocol from their own process (docs/protocol.md)."""

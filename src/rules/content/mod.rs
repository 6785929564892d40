//! What a rollout's strings hold: inline media where Codex strips it, credentials.

group![inline_media, secret];

"""Where text becomes evidence: statement support, entities, refusals, embeddings."""

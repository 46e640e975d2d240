"""What is evaluated: the corpus, question sets, bots and the knowledge graph."""

"""Training data (`asi-agent data`): transcripts → spec §5.1 JSONL or ms-swift, DPO pairs, gates, mix."""

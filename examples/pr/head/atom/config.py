"""Engine configuration (synthetic code for the review-action demo)."""
from dataclasses import dataclass


@dataclass
class Config:
    max_batch: int = 256
    block_size: int = 16
    sampling_mode: str = "greedy"

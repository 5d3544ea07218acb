"""Mixture-of-experts layer (synthetic code for the review-action demo)."""


def shuffle_weight(w):
    return list(reversed(w))


class FusedMoE:
    def __init__(self, w13_weight):
        self.w13_weight = w13_weight
        self.w13_weight_preshuffled = shuffle_weight(w13_weight)

    def forward(self, x):
        return [a * b for a, b in zip(x, self.w13_weight_preshuffled)]

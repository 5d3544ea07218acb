"""Token sampling for the example engine (synthetic code for the review-action demo)."""


def draw_noise(shape):
    return [0.0] * shape


def sample(logits, mode, shape):
    if mode == "greedy":
        noise = None
    elif mode == "sample":
        noise = draw_noise(shape)
    return pick(logits, noise)


def pick(logits, noise):
    if noise is None:
        return max(range(len(logits)), key=logits.__getitem__)
    return max(range(len(logits)), key=lambda i: logits[i] + noise[i])

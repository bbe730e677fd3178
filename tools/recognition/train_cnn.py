"""Train the convolutional corner reader: ``python -m tools.recognition.train_cnn PATCHES``.

Training only. PATCHES is the file ``python -m tools.recognition.train --patches FILE`` writes
(synthetic scene patches and real ``subset=train`` crop patches, labelled). Needs torch and onnx
(requirements-train.txt; torch 2.13 installs for Python 3.11 only, so this runs in its own venv).
Writes ``corner_cnn.onnx``, which ``model.PatchNetwork`` runs with ONNX Runtime.
"""

import argparse
import time
from pathlib import Path

import numpy as np

import recognizer.corners
from recognizer.corners import NETWORK_HEIGHT, NETWORK_WIDTH

# recognizer.model.NETWORK_PATH. Neither that module nor recognizer.cards is imported here: torch
# installs for Python 3.11 only, where rules/ (which recognizer.cards imports) does not, as it uses
# Python 3.12 syntax. The class labels come from the patches file (``train --patches``) instead.
NETWORK_PATH = Path(recognizer.corners.__file__).with_name("corner_cnn.onnx")

SEED = 20240627
BATCH = 256


def build_network(classes: int):
    import torch
    from torch import nn
    from torch.nn import functional

    class CornerNet(nn.Module):
        """Three 3x3 convolutions with pooling, then two dense layers: about 9 M multiply-adds."""

        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(3, 24, 3, padding=1)
            self.conv2 = nn.Conv2d(24, 48, 3, padding=1)
            self.conv3 = nn.Conv2d(48, 96, 3, padding=1)
            self.dense = nn.Linear(96 * (NETWORK_HEIGHT // 8) * (NETWORK_WIDTH // 8), 192)
            self.out = nn.Linear(192, classes)
            self.drop = nn.Dropout(0.3)

        def forward(self, x):
            x = functional.max_pool2d(functional.relu(self.conv1(x)), 2)
            x = functional.max_pool2d(functional.relu(self.conv2(x)), 2)
            x = functional.max_pool2d(functional.relu(self.conv3(x)), 2)
            x = torch.flatten(x, 1)
            return self.out(self.drop(functional.relu(self.dense(x))))

    return CornerNet()


def normalize(x):
    """As ``model.normalize_patches``: each patch less its mean, over its spread plus 8."""
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    spread = x.std(dim=(1, 2, 3), keepdim=True) + 8.0
    return (x - mean) / spread


SPLICE_ROW = 25  # patches show the rank above this row, the suit below it


def splice(x, targets, generator, classes, not_cards, share=0.3):
    """Give a share of the cards the suit of another card in the batch: (N, 3, H, W) floats.

    The real patches from webcam photos show clubs only under a 2, 8, 10 or queen; spliced, they
    sit under every rank. The suit half is brought to the brightness of the half it replaces.
    ``classes`` names the targets; those in ``not_cards`` (the joker, not an index) keep theirs.
    """
    import torch

    cards = torch.tensor([name not in not_cards for name in classes])[targets]
    chosen = torch.nonzero(cards & (torch.rand(len(targets), generator=generator) < share))[:, 0]
    donors = torch.nonzero(cards)[:, 0]
    if not len(chosen):
        return x, targets
    donors = donors[torch.randint(len(donors), (len(chosen),), generator=generator)]
    own, given = x[chosen, :, SPLICE_ROW:], x[donors, :, SPLICE_ROW:]
    dims = (1, 2, 3)
    scale = own.std(dim=dims, keepdim=True) / (given.std(dim=dims, keepdim=True) + 1.0)
    x = x.clone()
    x[chosen, :, SPLICE_ROW:] = (
        (given - given.mean(dim=dims, keepdim=True)) * scale + own.mean(dim=dims, keepdim=True)
    ).clamp(0, 255)
    index = {name: position for position, name in enumerate(classes)}
    spliced = torch.tensor(
        [
            index[classes[int(rank)][:-1] + classes[int(suit)][-1]]
            for rank, suit in zip(targets[chosen], targets[donors], strict=True)
        ]
    )
    targets = targets.clone()
    targets[chosen] = spliced
    return x, targets


def augment(x, generator):
    """Random photo faults on (N, 3, H, W) 0-255 floats.

    Geometry (squashed, sheared, turned: photos stretched to a square squash their indices), low
    resolution, lighting, white balance, blur, grey photos, sensor noise and isolated dots (the
    webcam photos carry salt-and-pepper noise).
    """
    import torch
    from torch.nn import functional

    count = x.shape[0]

    def normal(*shape):
        return torch.randn(*shape, generator=generator).clamp(-2, 2)

    def uniform(low, high, *shape):
        return low + (high - low) * torch.rand(*shape, generator=generator)

    def chance(probability):
        return torch.rand(count, generator=generator) < probability

    bent = chance(0.7)
    if bent.any():
        many = int(bent.sum())
        turn = uniform(-0.1, 0.1, many)
        cos, sin = torch.cos(turn), torch.sin(turn)
        # Above 1: narrower (squash) or flatter (stretch) glyphs, by up to 1.8 times.
        squash = torch.exp(uniform(-0.4, 0.6, many))
        stretch = torch.exp(uniform(-0.3, 0.6, many))
        shear = uniform(-0.15, 0.15, many)
        theta = torch.zeros(many, 2, 3)
        theta[:, 0, 0] = cos * squash
        theta[:, 0, 1] = -sin * stretch + shear
        theta[:, 1, 0] = sin * squash
        theta[:, 1, 1] = cos * stretch
        theta[:, :, 2] = uniform(-0.06, 0.06, many, 2)
        grid = functional.affine_grid(theta, list(x[bent].shape), align_corners=False)
        x[bent] = functional.grid_sample(
            x[bent], grid, mode="bilinear", padding_mode="border", align_corners=False
        )
    coarse = chance(0.3)
    if coarse.any():
        height, width = x.shape[2:]
        factor = float(uniform(0.35, 0.75, 1))
        small = functional.interpolate(
            x[coarse], size=(round(height * factor), round(width * factor)), mode="area"
        )
        x[coarse] = functional.interpolate(
            small, size=(height, width), mode="bilinear", align_corners=False
        )
    x = (x - 128) * (1 + 0.25 * normal(count, 1, 1, 1)) * (1 + 0.08 * normal(count, 3, 1, 1))
    x = x + 128 + 30 * normal(count, 1, 1, 1)
    kernel = torch.tensor([[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]) / 16
    kernel = kernel.view(1, 1, 3, 3).repeat(3, 1, 1, 1)
    blur = chance(0.35)
    # Half of them twice: webcam indices are blurred over more than a pixel of the patch.
    for blurred in (blur, blur & chance(0.5)):
        if blurred.any():
            padded = functional.pad(x[blurred], (1, 1, 1, 1), mode="replicate")
            x[blurred] = functional.conv2d(padded, kernel, groups=3)
    grey = chance(0.05)
    if grey.any():
        x[grey] = x[grey].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1).clone()
    noise = torch.rand(count, 1, 1, 1, generator=generator) * 10
    x = x + torch.randn(x.shape, generator=generator) * noise
    dotted = chance(0.35)[:, None, None, None]
    share = uniform(0.001, 0.012, count, 1, 1, 1)
    dots = dotted & (torch.rand(count, 1, *x.shape[2:], generator=generator) < share)
    shade = (torch.rand(count, 1, *x.shape[2:], generator=generator) < 0.5).float() * 255
    x = torch.where(dots, shade, x)
    return x.clamp(0, 255)


def main() -> None:
    import torch
    from torch.nn import functional

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("patches", type=Path, nargs="+")
    parser.add_argument("--epochs", type=int, default=11)
    parser.add_argument("--learning-rate", type=float, default=3e-3, help="the one-cycle peak")
    parser.add_argument(
        "--init", type=Path, default=None, help="start from this network's weights (fine-tune)"
    )
    parser.add_argument("--real-weight", type=int, default=3, help="copies of each real patch")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--output", type=Path, default=NETWORK_PATH)
    arguments = parser.parse_args()

    torch.manual_seed(arguments.seed)
    torch.set_num_threads(arguments.threads)
    generator = torch.Generator().manual_seed(arguments.seed)
    synthetic, synthetic_labels, real, real_labels = [], [], [], []
    with np.load(arguments.patches[0]) as stored:
        if "classes" not in stored.files:
            parser.error(f"{arguments.patches[0]} has no class labels: make it again with train")
        classes = tuple(str(name) for name in stored["classes"])
        not_cards = (str(stored["background"]), str(stored["joker"]))
    for path in arguments.patches:
        with np.load(path) as stored:
            if tuple(str(name) for name in stored["classes"]) != classes:
                parser.error(f"{path} has other class labels than {arguments.patches[0]}")
            synthetic.append(stored["synthetic"])
            synthetic_labels += list(stored["synthetic_labels"])
            real.append(stored["real"])
            real_labels += list(stored["real_labels"])
    synthetic, real = np.concatenate(synthetic), np.concatenate(real)
    index = {name: position for position, name in enumerate(classes)}
    patches = np.concatenate([synthetic] + [real] * arguments.real_weight)
    labels = [index[str(name)] for name in synthetic_labels + real_labels * arguments.real_weight]
    inputs = torch.from_numpy(patches).permute(0, 3, 1, 2).contiguous()
    targets = torch.tensor(labels)
    print(f"{len(targets)} patches ({len(real)} real, used {arguments.real_weight}x)", flush=True)

    network = build_network(len(classes))
    if arguments.init:
        import onnx
        from onnx import numpy_helper

        stored = onnx.load(str(arguments.init)).graph.initializer
        network.load_state_dict(
            {
                weight.name: torch.from_numpy(numpy_helper.to_array(weight).copy())
                for weight in stored
            }
        )
    optimizer = torch.optim.AdamW(network.parameters(), 2e-3, weight_decay=1e-4)
    batches = len(targets) // BATCH
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, arguments.learning_rate, total_steps=arguments.epochs * batches
    )
    started = time.monotonic()
    for epoch in range(arguments.epochs):
        network.train()
        order = torch.randperm(len(targets), generator=generator)
        total_loss, correct = 0.0, 0
        for batch in range(batches):
            chosen = order[batch * BATCH : (batch + 1) * BATCH]
            x, wanted = splice(
                inputs[chosen].float(), targets[chosen], generator, classes, not_cards
            )
            logits = network(normalize(augment(x, generator)))
            loss = functional.cross_entropy(logits, wanted, label_smoothing=0.05)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            total_loss += loss.item() * len(chosen)
            correct += int((logits.argmax(1) == wanted).sum())
        seen = batches * BATCH
        print(
            f"epoch {epoch}: loss {total_loss / seen:.4f}, accuracy {correct / seen:.4f}, "
            f"{time.monotonic() - started:.0f} s",
            flush=True,
        )
    network.eval()
    torch.onnx.export(
        network,
        torch.zeros(1, 3, NETWORK_HEIGHT, NETWORK_WIDTH),
        str(arguments.output),
        input_names=["patches"],
        output_names=["logits"],
        dynamic_axes={"patches": {0: "count"}, "logits": {0: "count"}},
        opset_version=13,
        dynamo=False,
    )
    print(f"wrote {arguments.output} in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()

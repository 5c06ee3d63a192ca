#!/usr/bin/python3
"""peer_torch.py — the PyTorch peer for crosscheck's model figures: ResNet50 v1.5 (the
same layer shapes as crosscheck's built-in model, defined here in plain torch.nn) timed
on the CPU in eager mode and as a frozen TorchScript graph, at batch 1 and a larger
batch, with a fixed number of threads. Run it in the same session as `crosscheck model
run` so both see the same machine state:

    /usr/bin/python3 scripts/peer_torch.py --threads 2 --batch 8

Needs Debian's python3-torch; it is a peer for comparison, not a dependency."""
import argparse
import statistics
import time

import torch
import torch.nn as nn


class Bottleneck(nn.Module):
    def __init__(self, cin, width, stride):
        super().__init__()
        cout = width * 4
        self.conv1 = nn.Conv2d(cin, width, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, 3, stride=stride, padding=1, bias=False)  # v1.5
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = nn.Conv2d(width, cout, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(cout)
        self.relu = nn.ReLU(inplace=True)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.relu(self.bn2(self.conv2(y)))
        y = self.bn3(self.conv3(y))
        return self.relu(y + (self.down(x) if self.down is not None else x))


class ResNet50(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(inplace=True),
                                  nn.MaxPool2d(3, 2, 1))
        layers, cin = [], 64
        for blocks, width, stride in ((3, 64, 1), (4, 128, 2), (6, 256, 2), (3, 512, 2)):
            for b in range(blocks):
                layers.append(Bottleneck(cin, width, stride if b == 0 else 1))
                cin = width * 4
        self.body = nn.Sequential(*layers)
        self.fc = nn.Linear(2048, 1000)

    def forward(self, x):
        x = self.body(self.stem(x))
        return self.fc(torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1))


def timed(fn, x, seconds, min_runs):
    for _ in range(3):
        fn(x)
    samples, start = [], time.perf_counter()
    while len(samples) < min_runs or time.perf_counter() - start < seconds:
        t0 = time.perf_counter()
        fn(x)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples), len(samples)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--size", type=int, default=224)
    ap.add_argument("--seconds", type=float, default=5.0)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    model = ResNet50().eval()
    params = sum(p.numel() for p in model.parameters())
    print(f"torch {torch.__version__}, {a.threads} threads, ResNet50 v1.5 with {params} parameters")
    with torch.no_grad():
        for batch in (1, a.batch):
            x = torch.randn(batch, 3, a.size, a.size)
            eager, n1 = timed(model, x, a.seconds, 5)
            frozen_model = torch.jit.freeze(torch.jit.trace(model, x))
            frozen, n2 = timed(frozen_model, x, a.seconds, 5)
            print(f"batch {batch}: eager median {eager * 1e3:.1f} ms ({batch / eager:.2f} images/s, {n1} runs); "
                  f"frozen TorchScript median {frozen * 1e3:.1f} ms ({batch / frozen:.2f} images/s, {n2} runs)")


if __name__ == "__main__":
    main()

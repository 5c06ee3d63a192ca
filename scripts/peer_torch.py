#!/usr/bin/python3
"""peer_torch.py — the PyTorch peer for crosscheck's model figures: ResNet50 v1.5 and
YOLOv5s v6.0 (the same layer shapes as crosscheck's built-in models, defined here in
plain torch.nn; the detector with its box decode, without NMS, as crosscheck's graph)
timed on the CPU in eager mode and as a frozen TorchScript graph, at batch 1 and a larger
batch, with a fixed number of threads. Run it in the same session as `crosscheck model
run` so both see the same machine state:

    /usr/bin/python3 scripts/peer_torch.py --threads 2 --batch 8
    /usr/bin/python3 scripts/peer_torch.py --model yolov5s --size 640 --batch 1
    python3 scripts/peer_torch.py --device cuda --batch 256 --seconds 1 --json peer.jsonl

On CUDA (scripts/device-check.sh): eager mode per precision (fp32 with TF32 off, tf32, fp16
and bf16 autocast), NCHW (and channels_last at the large batch), cuDNN's benchmark mode,
timed with a synchronise after each run.

Needs Debian's python3-torch; it is a peer for comparison, not a dependency."""
import argparse
import contextlib
import json
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


class ConvBnSiLU(nn.Module):
    def __init__(self, cin, cout, k, s):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, s, 2 if k == 6 else k // 2, bias=False)
        self.bn = nn.BatchNorm2d(cout, eps=1e-3)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class C3(nn.Module):
    def __init__(self, cin, cout, n, shortcut):
        super().__init__()
        h = cout // 2
        self.cv1, self.cv2, self.cv3 = ConvBnSiLU(cin, h, 1, 1), ConvBnSiLU(cin, h, 1, 1), ConvBnSiLU(2 * h, cout, 1, 1)
        self.m = nn.ModuleList(nn.Sequential(ConvBnSiLU(h, h, 1, 1), ConvBnSiLU(h, h, 3, 1)) for _ in range(n))
        self.shortcut = shortcut

    def forward(self, x):
        a = self.cv1(x)
        for m in self.m:
            a = a + m(a) if self.shortcut else m(a)
        return self.cv3(torch.cat((a, self.cv2(x)), 1))


class SPPF(nn.Module):
    def __init__(self, cin, cout, k):
        super().__init__()
        self.cv1, self.cv2 = ConvBnSiLU(cin, cin // 2, 1, 1), ConvBnSiLU(cin * 2, cout, 1, 1)
        self.m = nn.MaxPool2d(k, 1, k // 2)

    def forward(self, x):
        x = self.cv1(x)
        y1 = self.m(x)
        y2 = self.m(y1)
        return self.cv2(torch.cat((x, y1, y2, self.m(y2)), 1))


ANCHORS = ((10, 13, 16, 30, 33, 23), (30, 61, 62, 45, 59, 119), (116, 90, 156, 198, 373, 326))
STRIDES = (8, 16, 32)
# (kind, a, b, c) as models/yolo.c's table: CONV c_out k s; C3 c_out n shortcut; SPPF c_out k; UP; CAT from
LAYERS = (("CONV", 32, 6, 2), ("CONV", 64, 3, 2), ("C3", 64, 1, 1), ("CONV", 128, 3, 2), ("C3", 128, 2, 1),
          ("CONV", 256, 3, 2), ("C3", 256, 3, 1), ("CONV", 512, 3, 2), ("C3", 512, 1, 1), ("SPPF", 512, 5, 0),
          ("CONV", 256, 1, 1), ("UP",), ("CAT", 6), ("C3", 256, 1, 0), ("CONV", 128, 1, 1), ("UP",), ("CAT", 4),
          ("C3", 128, 1, 0), ("CONV", 128, 3, 2), ("CAT", 14), ("C3", 256, 1, 0), ("CONV", 256, 3, 2), ("CAT", 10),
          ("C3", 512, 1, 0))


class YOLOv5s(nn.Module):
    def __init__(self, size):
        super().__init__()
        mods, ch, c = [], [], 3
        for l in LAYERS:
            if l[0] == "CONV":
                mods.append(ConvBnSiLU(c, l[1], l[2], l[3]))
                c = l[1]
            elif l[0] == "C3":
                mods.append(C3(c, l[1], l[2], l[3] == 1))
                c = l[1]
            elif l[0] == "SPPF":
                mods.append(SPPF(c, l[1], l[2]))
                c = l[1]
            elif l[0] == "UP":
                mods.append(nn.Upsample(scale_factor=2.0, mode="nearest"))
            else:
                mods.append(nn.Identity())
                c += ch[l[1]]
            ch.append(c)
        self.model = nn.ModuleList(mods)
        self.detect = nn.ModuleList(nn.Conv2d(ch[i], 3 * 85, 1) for i in (17, 20, 23))
        grids, anchors = [], []
        for i, s in enumerate(STRIDES):
            n = size // s
            yy, xx = torch.meshgrid(torch.arange(n), torch.arange(n), indexing="ij")
            grids.append(torch.stack((xx, yy), 2).view(1, 1, n, n, 2).float())
            anchors.append(torch.tensor(ANCHORS[i], dtype=torch.float32).view(1, 3, 1, 1, 2))
        self.grids, self.anchors = grids, anchors

    def forward(self, x):
        outs = []
        for i, (l, m) in enumerate(zip(LAYERS, self.model)):
            x = torch.cat((x, outs[l[1]]), 1) if l[0] == "CAT" else m(x)
            outs.append(x)
        rows = []
        for i, (f, conv) in enumerate(zip((outs[17], outs[20], outs[23]), self.detect)):
            t = conv(f)
            n, _, h, w = t.shape
            s = t.view(n, 3, 85, h, w).permute(0, 1, 3, 4, 2).sigmoid()
            xy = (s[..., 0:2] * 2 - 0.5 + self.grids[i]) * STRIDES[i]
            wh = (s[..., 2:4] * 2) ** 2 * self.anchors[i]
            rows.append(torch.cat((xy, wh, s[..., 4:]), 4).view(n, 3 * h * w, 85))
        return torch.cat(rows, 1)


def timed(fn, x, seconds, min_runs, sync=None):
    for _ in range(3):
        fn(x)
    if sync:
        sync()
    samples, start = [], time.perf_counter()
    while len(samples) < min_runs or time.perf_counter() - start < seconds:
        t0 = time.perf_counter()
        fn(x)
        if sync:
            sync()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples), len(samples)


def cuda_precision(prec):
    """The torch settings of one precision on CUDA: fp32 strict (TF32 off in cuBLAS and cuDNN,
    which torch allows by default for convolutions), tf32, and fp16/bf16 autocast."""
    tf32 = prec == "tf32"
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32
    if prec in ("fp16", "bf16"):
        return torch.autocast("cuda", dtype=torch.float16 if prec == "fp16" else torch.bfloat16)
    return contextlib.nullcontext()


def run_cuda(a, model, size, name):
    """Eager PyTorch on the GPU per precision and batch (NCHW, and channels_last at the large
    batch), each figure the median of synchronised runs; one line per figure and, with
    --json, one record appended as soon as it is measured."""
    torch.backends.cudnn.benchmark = True
    dev = torch.device("cuda")
    model = model.to(dev)
    p = torch.cuda.get_device_properties(dev)
    print(f"torch {torch.__version__}, CUDA {torch.version.cuda}, cuDNN {torch.backends.cudnn.version()}, "
          f"{p.name} ({p.multi_processor_count} SMs), {name} at {size} px")
    with torch.no_grad():
        for prec in a.precisions.split(","):
            for batch in sorted({1, a.batch}):
                for layout in ("nchw", "channels_last") if batch > 1 else ("nchw",):
                    fmt = torch.channels_last if layout == "channels_last" else torch.contiguous_format
                    m = model.to(memory_format=fmt)
                    x = torch.randn(batch, 3, size, size, device=dev).to(memory_format=fmt)
                    with cuda_precision(prec):
                        med, n = timed(m, x, a.seconds, 5, torch.cuda.synchronize)
                    rec = {"model": a.model, "size": size, "precision": prec, "batch": batch, "layout": layout,
                           "median_ms": med * 1e3, "images_per_s": batch / med, "runs": n, "gpu": p.name,
                           "torch": torch.__version__}
                    if a.json:
                        with open(a.json, "a") as f:
                            f.write(json.dumps(rec) + "\n")
                    print(f"{a.model} {prec} batch {batch} {layout}: median {med * 1e3:.3f} ms, "
                          f"{batch / med:.1f} images/s ({n} runs)", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--size", type=int, default=0, help="input size (default: 224 for resnet50, 640 for yolov5s)")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--model", choices=("resnet50", "yolov5s"), default="resnet50")
    ap.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    ap.add_argument("--precisions", default="fp32,tf32,fp16,bf16", help="cuda: of fp32,tf32,fp16,bf16")
    ap.add_argument("--json", help="cuda: append one JSON record per figure to this file")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    yolo = a.model == "yolov5s"
    size = a.size or (640 if yolo else 224)
    model = (YOLOv5s(size) if yolo else ResNet50()).eval()
    # the detector's convolutions He-initialised: activations stay of order one (std 0.02
    # to 1.4), as crosscheck's calibrated synthetic weights keep them; torch's default
    # initialisation shrinks them layer by layer into denormals, which the CPU computes
    # far more slowly (4.7 s eager at 640 instead of about 0.1 s)
    for m in model.modules():
        if yolo and isinstance(m, nn.Conv2d):
            nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
    params = sum(p.numel() for p in model.parameters())
    name = "YOLOv5s v6.0" if yolo else "ResNet50 v1.5"
    if a.device == "cuda":
        if yolo:
            model.grids = [g.cuda() for g in model.grids]
            model.anchors = [t.cuda() for t in model.anchors]
        return run_cuda(a, model, size, name)
    print(f"torch {torch.__version__}, {a.threads} threads, {name} at {size} px with {params} parameters")
    with torch.no_grad():
        for batch in sorted({1, a.batch}):
            x = torch.randn(batch, 3, size, size)
            eager, n1 = timed(model, x, a.seconds, 5)
            frozen_model = torch.jit.freeze(torch.jit.trace(model, x))
            frozen, n2 = timed(frozen_model, x, a.seconds, 5)
            print(f"batch {batch}: eager median {eager * 1e3:.1f} ms ({batch / eager:.2f} images/s, {n1} runs); "
                  f"frozen TorchScript median {frozen * 1e3:.1f} ms ({batch / frozen:.2f} images/s, {n2} runs)")


if __name__ == "__main__":
    main()

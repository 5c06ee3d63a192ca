#!/usr/bin/python3
"""export-fixtures.py — writes the real-architecture test fixtures under models/fixtures/:
for each architecture an ONNX test-data folder as exporters ship them (model.onnx,
test_data_set_0/input_K.pb, output_K.pb), exported by torch.onnx from the torchvision or
torch.nn class that defines the architecture, with random weights (batch-norm statistics and
layer-norm affines randomised too, so they are not identities), small widths and small input
sizes so that each folder stays small, and PyTorch's own outputs recorded beside the inputs.
ctest imports every folder and compares each target's outputs with PyTorch's
(harness/tests/integration/fixtures.sh).

Run at development time with Debian's python3-torch, python3-torchvision and python3-onnx
(not dependencies of crosscheck or its tests; the folders are committed):

    /usr/bin/python3 scripts/export-fixtures.py [--out models/fixtures] [--only NAME,...]
"""
import argparse
import collections
import os
import shutil

import onnx
import onnx.numpy_helper
import torch
import torch.nn as nn
import torchvision
from torchvision.models import convnext, densenet, efficientnet, mobilenetv2, mobilenetv3, resnet
from torchvision.models import shufflenetv2, swin_transformer, vision_transformer
from torchvision.models.detection import ssd
from torchvision.models.detection.anchor_utils import DefaultBoxGenerator
from torchvision.models.segmentation import fcn, lraspp
from torchvision.ops import FeaturePyramidNetwork


def randomise(model, gen):
    """Random normalisation statistics and affines: an exported identity would test nothing."""
    for m in model.modules():
        if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d)):
            m.running_mean.copy_(torch.randn(m.num_features, generator=gen) * 0.1)
            m.running_var.copy_(torch.rand(m.num_features, generator=gen) * 0.5 + 0.75)
            if m.affine:
                m.weight.data.copy_(torch.rand(m.num_features, generator=gen) * 0.5 + 0.75)
                m.bias.data.copy_(torch.randn(m.num_features, generator=gen) * 0.1)
        elif isinstance(m, nn.Linear) and not m.weight.any():  # e.g. ViT's classifier starts at zero
            m.weight.data.copy_(torch.randn(m.weight.shape, generator=gen) * 0.2)
        elif isinstance(m, nn.LayerNorm) and m.elementwise_affine:
            m.weight.data.copy_(torch.rand(m.weight.shape, generator=gen) * 0.5 + 0.75)
            m.bias.data.copy_(torch.randn(m.bias.shape, generator=gen) * 0.1)
    return model


class ResNetSmall(nn.Module):
    """ResNet-18's layout (stem, four stages of torchvision's BasicBlock, the first block of
    stages 2-4 downsampling through a 1x1 projection) at widths 8-64."""

    def __init__(self, widths=(8, 12, 16, 24), classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, widths[0], 7, 2, 3, bias=False), nn.BatchNorm2d(widths[0]),
                                  nn.ReLU(inplace=True), nn.MaxPool2d(3, 2, 1))
        blocks, cin = [], widths[0]
        for i, w in enumerate(widths):
            stride = 1 if i == 0 else 2
            down = None
            if stride != 1 or cin != w:
                down = nn.Sequential(nn.Conv2d(cin, w, 1, stride, bias=False), nn.BatchNorm2d(w))
            blocks += [resnet.BasicBlock(cin, w, stride, down), resnet.BasicBlock(w, w)]
            cin = w
        self.blocks = nn.Sequential(*blocks)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.blocks(self.stem(x))), 1))


class FcnSmall(nn.Module):
    """torchvision's FCN segmentation model (backbone features, FCNHead, bilinear upsampling
    to the input size) with an auxiliary head: two outputs."""

    def __init__(self):
        super().__init__()
        back = ResNetSmall()
        body = nn.Sequential(back.stem, back.blocks[:4])
        aux_body = back.blocks[4:]
        self.body, self.aux_body = body, aux_body
        self.head = fcn.FCNHead(24, 5)
        self.aux = fcn.FCNHead(12, 5)

    def forward(self, x):
        size = x.shape[-2:]
        mid = self.body(x)
        out = self.head(self.aux_body(mid))
        aux = self.aux(mid)
        out = nn.functional.interpolate(out, size=size, mode="bilinear", align_corners=False)
        aux = nn.functional.interpolate(aux, size=size, mode="bilinear", align_corners=False)
        return out, aux


class LrasppSmall(nn.Module):
    """torchvision's LR-ASPP segmentation head on a narrow MobileNetV3-Small backbone."""

    def __init__(self):
        super().__init__()
        setting, _ = mobilenetv3._mobilenet_v3_conf("mobilenet_v3_small", width_mult=0.25)
        feats = mobilenetv3.MobileNetV3(setting, 128).features
        self.low = feats[:2]     # stride 4
        self.high = feats[2:]    # stride 32
        low_c = setting[0].out_channels
        high_c = feats[-1].out_channels
        self.head = lraspp.LRASPPHead(low_c, high_c, 4, 16)

    def forward(self, x):
        low = self.low(x)
        high = self.high(low)
        out = self.head({"low": low, "high": high})
        return nn.functional.interpolate(out, size=x.shape[-2:], mode="bilinear", align_corners=False)


class FpnSmall(nn.Module):
    """A detector's neck: torchvision's FeaturePyramidNetwork (lateral 1x1 convolutions,
    nearest upsampling, 3x3 output convolutions, an extra max-pooled level) over three
    backbone stages, with a box/class head on every level: four outputs."""

    def __init__(self):
        super().__init__()
        back = ResNetSmall()
        self.stem = back.stem
        self.s1, self.s2, self.s3 = back.blocks[:2], back.blocks[2:4], back.blocks[4:6]
        from torchvision.ops.feature_pyramid_network import LastLevelMaxPool
        self.fpn = FeaturePyramidNetwork([8, 12, 16], 16, extra_blocks=LastLevelMaxPool())
        self.head = nn.Conv2d(16, 3 * 6, 3, padding=1)

    def forward(self, x):
        c1 = self.s1(self.stem(x))
        c2 = self.s2(c1)
        c3 = self.s3(c2)
        levels = self.fpn({"c1": c1, "c2": c2, "c3": c3})
        return tuple(self.head(v) for v in levels.values())


class EncoderSmall(nn.Module):
    """A BERT-style encoder: token and position embeddings, layer norm, two
    nn.TransformerEncoderLayer (GELU, post-norm) with a padding mask from the attention mask,
    a pooled first token through tanh. Inputs: token ids (int64) and an attention mask."""

    def __init__(self, vocab=50, dim=16, heads=2, seq=8):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(seq, dim)
        self.norm = nn.LayerNorm(dim)
        layer = nn.TransformerEncoderLayer(dim, heads, 32, dropout=0.0, activation="gelu", batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.pool = nn.Linear(dim, dim)

    def forward(self, ids, mask):
        pos = torch.arange(ids.shape[1]).unsqueeze(0)
        h = self.norm(self.tok(ids) + self.pos(pos))
        h = self.enc(h, src_key_padding_mask=mask == 0)
        return h, torch.tanh(self.pool(h[:, 0]))


class RecurrentSmall(nn.Module):
    def __init__(self, kind):
        super().__init__()
        cls = {"lstm": nn.LSTM, "gru": nn.GRU}[kind]
        self.rnn = cls(6, 12, num_layers=1, batch_first=True, bidirectional=(kind == "gru"))
        self.fc = nn.Linear(12 * (2 if kind == "gru" else 1), 4)

    def forward(self, x):
        y, _ = self.rnn(x)
        return self.fc(y)


class SelectSmall(nn.Module):
    """A detector's tail in miniature: a 1x1 convolution scores every position of a feature
    map and predicts a box there; the positions whose score passes 0.5 are kept (NonZero),
    their boxes and scores gathered, and a count-shaped offset made from the kept count
    (Shape -> ConstantOfShape -> Add): outputs whose shape follows the data."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 5, 1)

    def forward(self, x):
        f = self.conv(x)
        s = torch.sigmoid(f[:, 0]).flatten()
        boxes = f[:, 1:].flatten(2).transpose(1, 2)[0]
        keep = torch.nonzero(s > 0.5).squeeze(1)
        scores = s[keep]
        offset = torch.zeros(keep.shape[0], 4) + scores[:, None]
        return boxes[keep] + offset, scores


class SsdSmall(nn.Module):
    """torchvision's SSD detector, whole: its transform (normalisation, resize), a two-level
    backbone, SSD's box and class heads over default boxes, and its post-processing (softmax,
    score threshold, top-k per class, batched NMS, the best detections_per_img): outputs
    boxes [k, 4], scores [k], labels [k] after NMS, k following the data. The class head's
    weights are doubled so that random logits spread the scores (0.2 to 0.7, not all near
    1/4), short of saturating them near 1, where FP16 and BF16 would tie them."""

    class Backbone(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.BatchNorm2d(8), nn.ReLU(), nn.Conv2d(8, 16, 3, 2, 1),
                                   nn.ReLU())
            self.b = nn.Sequential(nn.Conv2d(16, 16, 3, 2, 1), nn.ReLU())

        def forward(self, x):
            f1 = self.a(x)
            return collections.OrderedDict([("0", f1), ("1", self.b(f1))])

    def __init__(self):
        super().__init__()
        self.ssd = ssd.SSD(SsdSmall.Backbone(), DefaultBoxGenerator([[2], [2]]), (64, 64), 4, score_thresh=0.2,
                           detections_per_img=20, topk_candidates=50)
        with torch.no_grad():
            for m in self.ssd.head.classification_head.modules():
                if isinstance(m, nn.Conv2d):
                    m.weight.mul_(2)

    def forward(self, image):
        d = self.ssd([image])[0]
        return d["boxes"], d["scores"], d["labels"]


def image(gen, size=32, batch=1):
    return (torch.randn(batch, 3, size, size, generator=gen),)


def architectures(gen):
    """name -> (model, inputs, input names, output names, dynamic axes)."""
    c10 = dict(num_classes=10)
    mb3, _ = mobilenetv3._mobilenet_v3_conf("mobilenet_v3_small", width_mult=0.25)
    eff = [efficientnet.MBConvConfig(1, 3, 1, 32, 16, 1, 0.25, 1.0),
           efficientnet.MBConvConfig(6, 3, 2, 16, 24, 1, 0.25, 1.0),
           efficientnet.MBConvConfig(6, 5, 2, 24, 40, 1, 0.25, 1.0)]
    img = ["image"]
    batch = {"image": {0: "batch"}}
    yield "resnet18_small", ResNetSmall(), image(gen), img, ["logits"], batch
    yield "mobilenet_v2_small", mobilenetv2.MobileNetV2(width_mult=0.25, round_nearest=4, **c10,
        inverted_residual_setting=[[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 2, 2], [6, 64, 1, 2]]), \
        image(gen), img, ["logits"], None
    yield "mobilenet_v3_small", mobilenetv3.MobileNetV3(mb3, 64, **c10), image(gen), img, ["logits"], None
    yield "efficientnet_small", efficientnet.EfficientNet(eff, 0.2, last_channel=64, **c10), \
        image(gen), img, ["logits"], None
    yield "shufflenet_v2_small", shufflenetv2.ShuffleNetV2([1, 1, 1], [8, 16, 32, 64, 64], **c10), \
        image(gen), img, ["logits"], None
    yield "densenet_small", densenet.DenseNet(growth_rate=4, block_config=(3, 12), num_init_features=8, bn_size=2,
                                              **c10), image(gen), img, ["logits"], None
    yield "convnext_small", convnext.ConvNeXt([convnext.CNBlockConfig(8, 16, 1), convnext.CNBlockConfig(16, None, 2)],
                                              **c10), image(gen), img, ["logits"], None
    yield "vit_small", vision_transformer.VisionTransformer(32, 8, 2, 2, 16, 32, **c10), image(gen), img, \
        ["logits"], batch
    yield "swin_small", swin_transformer.SwinTransformer([2, 2], 8, [2, 2], [1, 2], [4, 4], **c10), \
        image(gen), img, ["logits"], None
    yield "fcn_small", FcnSmall(), image(gen), img, ["out", "aux"], None
    yield "lraspp_small", LrasppSmall(), image(gen), img, ["out"], None
    yield "fpn_small", FpnSmall(), image(gen, 64), img, ["p1", "p2", "p3", "pool"], None
    ids = torch.randint(0, 50, (2, 8), generator=gen)
    mask = torch.ones(2, 8, dtype=torch.int64)
    mask[1, 5:] = 0
    yield "encoder_small", EncoderSmall(), (ids, mask), ["input_ids", "attention_mask"], \
        ["hidden", "pooled"], {"input_ids": {0: "batch", 1: "sequence"}, "attention_mask": {0: "batch", 1: "sequence"}}
    yield "lstm_small", RecurrentSmall("lstm"), (torch.randn(2, 5, 6, generator=gen),), ["x"], ["y"], None
    yield "gru_small", RecurrentSmall("gru"), (torch.randn(2, 5, 6, generator=gen),), ["x"], ["y"], None
    yield "select_small", SelectSmall(), (torch.randn(1, 4, 6, 6, generator=gen),), ["features"], \
        ["boxes", "scores"], None
    # the recorded image repeats a 16x16 tile: positions with the same surroundings score exactly
    # alike, so PyTorch's and ONNX's orders among equal scores decide which boxes are listed
    yield "ssd_small", SsdSmall(), (torch.rand(3, 16, 16, generator=gen).repeat(1, 4, 4),), ["image"], \
        ["boxes", "scores", "labels"], None


def write(folder, name, model, inputs, in_names, out_names, dynamic, opset):
    path = os.path.join(folder, name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(os.path.join(path, "test_data_set_0"))
    model.eval()
    with torch.no_grad():
        outs = model(*inputs)
    if isinstance(outs, torch.Tensor):
        outs = (outs,)
    torch.onnx.export(model, inputs, os.path.join(path, "model.onnx"), input_names=in_names,
                      output_names=out_names, dynamic_axes=dynamic, opset_version=opset,
                      do_constant_folding=True)
    onnx.checker.check_model(onnx.load(os.path.join(path, "model.onnx")))
    for kind, tensors, names in (("input", inputs, in_names), ("output", outs, out_names)):
        for k, (t, n) in enumerate(zip(tensors, names)):
            proto = onnx.numpy_helper.from_array(t.detach().numpy(), n)
            with open(os.path.join(path, "test_data_set_0", f"{kind}_{k}.pb"), "wb") as f:
                f.write(proto.SerializeToString())
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)
    ops = sorted({n.op_type for n in onnx.load(os.path.join(path, "model.onnx")).graph.node})
    print(f"{name}: {size / 1024:.0f} KiB, opset {opset}, {len(ops)} op types: {' '.join(ops)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "models", "fixtures"))
    ap.add_argument("--only", default="")
    ap.add_argument("--opset", type=int, default=17)
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))
    gen = torch.Generator().manual_seed(20261127)
    torch.manual_seed(20261127)
    for name, model, inputs, in_names, out_names, dynamic in architectures(gen):
        if only and name not in only:
            continue
        randomise(model, gen)
        write(args.out, name, model, inputs, in_names, out_names, dynamic, args.opset)


if __name__ == "__main__":
    main()

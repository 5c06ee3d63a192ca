#!/usr/bin/env python3
"""device_summary.py — crosscheck's cuda model figures beside PyTorch's from one device check
(scripts/device-check.sh): images/s per model, precision and batch for both, their ratio, and
each as a share of the GPU's peak for its precision. Reads the run tagged device-check of
crosscheck's database and the peer's JSON lines; writes Markdown.

    python3 scripts/device_summary.py crosscheck.db peer.jsonl summary.md

Peaks: the FP32 peak crosscheck's cuda backend stored with the run (SMs x FP32 lanes x 2 x
clock), times the tensor-core rate per SM and clock relative to FP32 on the GPU's
architecture (NVIDIA's figures for dense math: Hopper sm_90 TF32 8x, FP16/BF16 16x, INT8 32x;
Ampere sm_80 TF32 8x, FP16/BF16 16x, INT8 32x of its 64 FP32 lanes)."""
import json
import re
import sqlite3
import sys

# tensor-core dense rate relative to the FP32 peak, by architecture
TENSOR_X = {80: {"tf32": 8, "f16": 16, "bf16": 16, "int8": 32},
            90: {"tf32": 8, "f16": 16, "bf16": 16, "int8": 32}}
# crosscheck (target, precision) -> the peer's precision and the peak's precision
PAIRS = [("cuda", "f32", "fp32", "f32"), ("cuda:tf32", "f32", "tf32", "tf32"), ("cuda", "f16", "fp16", "f16"),
         ("cuda", "bf16", "bf16", "bf16"), ("cuda", "int8", None, "int8")]


def main():
    db, peer_path, out = sys.argv[1:4]
    con = sqlite3.connect(db)
    run = con.execute("SELECT id FROM runs WHERE tag = 'device-check' ORDER BY id DESC LIMIT 1").fetchone()
    if not run:
        sys.exit("device_summary: no run tagged device-check in " + db)
    run = run[0]
    t = con.execute("SELECT device, driver, library, peak_gflops FROM run_targets WHERE run_id = ? AND name = 'cuda'",
                    (run,)).fetchone()
    lines = ["# crosscheck cuda beside PyTorch (one device check)", ""]
    peak = {}
    if t and t[3]:
        lines.append(f"GPU: {t[0]}; {t[1]}; {t[2]}")
        sm = re.search(r"sm_(\d+)", t[0])
        arch = int(sm.group(1)) if sm else 0
        peak["f32"] = t[3]
        for p, x in TENSOR_X.get(arch, {}).items():
            peak[p] = t[3] * x
        lines.append("Peaks (GFLOP/s, dense): " + ", ".join(f"{p} {v:,.0f}" for p, v in peak.items()))
    else:
        lines.append("GPU: cuda was not available in this run")
    lines.append("")
    peer = {}
    try:
        for row in open(peer_path):
            r = json.loads(row)
            k = (r["model"], r["precision"], r["batch"])
            peer.setdefault(k, {})[r["layout"]] = r["images_per_s"]
            peer["_torch"] = r["torch"]
    except OSError:
        pass
    if "_torch" in peer:
        lines.append(f"Peer: torch {peer['_torch']} eager (cuDNN benchmark mode), NCHW and channels_last")
        lines.append("")
    lines += ["| model | precision | batch | verdict | crosscheck images/s | % of peak | torch NCHW | torch channels_last | "
              "crosscheck / best torch |", "|---|---|---:|---|---:|---:|---:|---:|---:|"]
    rows = con.execute("SELECT model, target, precision, verdict, lat_p50, tp_batch, throughput, gflops, reason "
                       "FROM model_results WHERE run_id = ? ORDER BY model, id", (run,)).fetchall()
    for model in sorted({r[0] for r in rows}):
        for target, prec, pprec, peak_prec in PAIRS:
            m = [r for r in rows if r[0] == model and r[1] == target and r[2] == prec]
            if not m:
                continue
            _, _, _, verdict, p50, tpb, tput, gflops, reason = m[0]
            label = "tf32" if target == "cuda:tf32" else prec
            figures = [(1, 1 / p50 if p50 else None)]
            if tpb and tpb > 1:
                figures.append((tpb, tput))
            for batch, ips in figures:
                # GFLOP per image from the stored rate at batch 1 (gflops is batch 1's rate)
                flop_img = gflops * p50 if gflops and p50 else None
                share = ""
                if ips and flop_img and peak.get(peak_prec):
                    share = f"{100 * ips * flop_img / peak[peak_prec]:.1f}%"
                tp = peer.get((model, pprec, batch), {}) if pprec else {}
                best = max(tp.values()) if tp else None
                ratio = f"{ips / best:.2f}" if ips and best else ""
                v = verdict if verdict == "passed" else f"{verdict}: {reason[:80]}"
                nchw, cl = (f"{tp[k]:,.1f}" if k in tp else "" for k in ("nchw", "channels_last"))
                lines.append(f"| {model} | {label} | {batch} | {v} | {ips:,.1f} | {share} | {nchw} | {cl} | {ratio} |"
                             if ips else f"| {model} | {label} | {batch} | {v} | | | | | |")
    open(out, "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()

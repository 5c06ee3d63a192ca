#!/usr/bin/env bash
# device-check.sh — crosscheck's cuda backend on a machine with an NVIDIA GPU, in one call of
# under ten minutes (7 on an H200, of which the int8 model jobs, on the project's direct int32
# kernels, take the most), everything measured written under OUT in eight files (what a
# device call brings back at most):
#   log.txt          every step's output: nvidia-smi, the machine, `crosscheck list targets`,
#                    the op suite, the models, a few cuda cases under compute-sanitizer's
#                    memcheck, the PyTorch peer, each step's wall time
#   crosscheck.db.xz the run (xz-compressed): the quick op suite on cuda and cuda:tf32,
#                    ResNet50 and YOLOv5s in f32, tf32, f16, bf16 and int8 at batch 1 and a
#                    large batch, joined as one run
#   opencl.db.xz     the quick op suite on opencl, where NVIDIA's OpenCL driver is installed
#   opencl.md        (unless DEVICE_CHECK_OPENCL=0), last, in the time left
#   report.md        `crosscheck report` of that run
#   peer.jsonl       PyTorch on the same GPU (scripts/peer_torch.py --device cuda)
#   summary.md       crosscheck against PyTorch per model, precision and batch, as ratios,
#                    and each figure as a share of the GPU's peak for its precision
#   layers.md        ResNet50's convolutions and GEMM at batch 256 on cuda (and cuda:tf32),
#                    timing only, GFLOP/s per layer in f32, f16, bf16 and int8
#
#   scripts/device-check.sh OUT [BUNDLE]
#
# The machine needs the NVIDIA driver, CUDA 13's runtime libraries (cuBLAS, cuBLASLt, cuDNN 9:
# the toolkit's or Python's nvidia-* packages, found by name), python3 with torch for the
# peer; crosscheck itself comes in BUNDLE (default .device/bundle.tar.xz, made here by
# scripts/device-bundle.sh from a CUDA build). Without a usable GPU it stops after
# `list targets` with one line saying why (exit 3); DEVICE_CHECK_REHEARSE=1 goes on anyway,
# to rehearse every step on a machine without one.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/device-check.sh OUT [BUNDLE]}
bundle=${2:-.device/bundle.tar.xz}
mkdir -p "$out" || exit 3
out=$(cd "$out" && pwd)
log=$out/log.txt
: > "$log"
t_start=$(date +%s%N)

# seconds since a `date +%s%N` reading, to 0.1 s
elapsed() { local d=$((($(date +%s%N) - $1) / 100000000)); echo "$((d / 10)).$((d % 10))"; }
say() { echo "device-check: $*" | tee -a "$log"; }
# step NAME LIMIT CMD...: runs CMD with its output in the log (and on stdout), at most LIMIT
# seconds (SIGINT first: crosscheck records an interrupted run and exits 130), and notes its
# wall time and exit status
step() {
    local name=$1 limit=$2
    shift 2
    local t0 rc
    t0=$(date +%s%N)
    echo "=== $name (limit ${limit} s): $*" | tee -a "$log"
    timeout -s INT -k 15 "$limit" "$@" 2>&1 | tee -a "$log"
    rc=${PIPESTATUS[0]}
    echo "=== $name: exit $rc in $(elapsed "$t0") s" | tee -a "$log"
    return "$rc"
}

[ -f "$bundle" ] || { say "no crosscheck bundle at $bundle (make it with scripts/device-bundle.sh)"; exit 3; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -C "$work" -xJf "$bundle" || { say "cannot unpack $bundle"; exit 3; }
cc=$work/crosscheck/bin/crosscheck

# the CUDA libraries crosscheck links (cuBLAS, cuBLASLt, cuDNN 9 and what cuDNN opens at run
# time: its engine libraries, NVRTC) from the toolkit or Python's nvidia-* packages
libdirs=$work/crosscheck/lib
roots="/usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib"
sites=$(python3 -c 'import site, sys; print(" ".join(site.getsitepackages() + [site.getusersitepackages()]))' 2>/dev/null)
for s in $sites; do [ -d "$s/nvidia" ] && roots="$s/nvidia $roots"; done
for lib in libcublas.so.13 libcublasLt.so.13 libcudnn.so.9 libcudnn_engines_precompiled.so.9 libnvrtc.so.13; do
    f=$(find $roots -name "$lib" 2>/dev/null | head -1)
    if [ -n "$f" ]; then
        d=$(dirname "$f")
        case ":$libdirs:" in *":$d:"*) ;; *) libdirs=$libdirs:$d ;; esac
    else
        echo "device-check: $lib not found under $roots" >> "$log"
    fi
done
orig_ld=${LD_LIBRARY_PATH-}   # the peer's: torch finds its own CUDA libraries
export LD_LIBRARY_PATH=$libdirs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# NVIDIA's OpenCL driver, where the machine has it, through an ICD file of our own (the
# bundle's loader reads OCL_ICD_VENDORS)
ocl=$(find /usr/lib/x86_64-linux-gnu /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib64 \
      -maxdepth 1 -name 'libnvidia-opencl.so.1' 2>/dev/null | head -1)
if [ -n "$ocl" ]; then
    mkdir -p "$work/icd"
    echo "$ocl" > "$work/icd/nvidia.icd"
    export OCL_ICD_VENDORS=$work/icd
fi

{
    echo "=== bundle: $(cat "$work/crosscheck/COMMIT" | tr '\n' ' ')"
    echo "=== LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
    echo "=== OpenCL ICD: ${ocl:-none}"
    echo "=== machine: $(uname -srm); $(nproc) CPUs; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
} | tee -a "$log"
step nvidia-smi 20 nvidia-smi
step nvcc 10 nvcc --version
step ldd 10 bash -c "ldd '$cc' | grep -E 'not found|cuda|cublas|cudnn'"
step targets 60 "$cc" list targets
status=$("$cc" list targets 2>/dev/null | awk '$1 == "cuda" { print $2 }')
if [ "$status" != available ]; then
    why=$("$cc" list targets 2>&1 | awk '$1 == "cuda" { $1 = ""; $2 = ""; sub(/^ +/, ""); print }')
    say "the cuda target is not usable here: ${why:-crosscheck lists no cuda target}"
    [ "${DEVICE_CHECK_REHEARSE:-0}" = 1 ] || exit 3
    say "DEVICE_CHECK_REHEARSE=1: going on without a GPU"
fi
targets=cuda,cuda:tf32
# opencl on NVIDIA's driver runs last, in what is left of DEVICE_CHECK_BUDGET seconds (default
# 560 of the device call's 600), so it never costs the cuda steps
nv_opencl=0
if [ "${DEVICE_CHECK_OPENCL:-1}" = 1 ]; then
    "$cc" list targets 2>/dev/null | awk '$1 == "opencl" && $2 == "available"' | grep -qi nvidia && nv_opencl=1
fi

db=$work/crosscheck.db   # OUT gets it compressed
# 1. the quick op suite (cuda:tf32 runs the FP32 cases on TF32 tensor cores, declining the rest)
step ops 120 "$cc" run --quick --targets "$targets" --db "$db" --tag device-check --timeout 30 --min-time 0.005
# 2. both models joined to that run: f32, f16, bf16, int8 on cuda and f32 on cuda:tf32, at
#    batch 1 (latency) and a large batch (throughput), checked against the golden model
step resnet50 140 "$cc" model run resnet50 --run device-check --db "$db" --targets cuda,cuda:tf32 \
    --precisions f32,f16,bf16,int8 --images 2 --calib 2 --batch 1,cuda=256 --min-time 0.3 --timeout 60 \
    --mem-limit 65536
step yolov5s 220 "$cc" model run yolov5s --run device-check --db "$db" --targets cuda,cuda:tf32 \
    --precisions f32,f16,bf16,int8 --images 1 --calib 1 --batch 1,cuda=64 --min-time 0.3 --timeout 60 \
    --mem-limit 65536
# the database as it is now (xz: it outgrows what a device call brings back), again at the end
xz -T0 -c "$db" > "$out/crosscheck.db.xz"
# 3. a few cases under compute-sanitizer (memcheck follows the run's worker process)
san=$(command -v compute-sanitizer || find /usr/local/cuda*/bin /opt/nvidia -name compute-sanitizer -type f 2>/dev/null | head -1)
cat > "$work/sanitize.csv" <<'EOF'
case
"Conv(x=2x4x9x9:f32,w=6x4x3x3,b=6,pads=[1,1,1,1],strides=[2,2])"
"QLinearConv(x=2x4x9x9:i8,w=6x4x3x3,b=6:i32,pads=[1,1,1,1],strides=[2,2],w_zp=1)"
"Gemm(a=7x33:f16,b=33x9,c=7x1,alpha=0.5,beta=2)"
"MatMul(a=4x8:f16,b=8)"
"Softmax(input=3x1x4:f16,axis=2)"
"Add(a=1x16x8x8:f16,b=16x1x1)"
"Resize(x=1x3x8x8:f32,coordinate_transformation_mode=align_corners,mode=linear,sizes=[1,3,15,15])"
"GridSample(x=2x3x5x7:f16,grid=2x4x6x2,mode=bicubic,padding_mode=reflection)"
"RoiAlign(x=2x3x12x16:f16,rois=6x4,batch_indices=6:i64,output_height=3,output_width=3,mode=max,sampling_ratio=2)"
"MaxPool(x=1x4x10x10:f32,kernel_shape=[5,5],pads=[2,2,2,2])"
"BatchNormalization(x=4x16:f32,scale=16,b=16,input_mean=16,input_var=16)"
"Where(condition=2x3x4:bool,x=scalar:f32,y=4:f32)"
"BitShift(x=2x3:u8,y=3,direction=LEFT)"
"IsInf(x=1x2048x7x7:f32)"
EOF
if [ -n "$san" ]; then
    step sanitizer 20 "$san" --tool memcheck --target-processes all --print-limit 20 \
        "$cc" run --cases-file "$work/sanitize.csv" --targets cuda --no-timing --db "$work/sanitize.db"
else
    say "no compute-sanitizer found"
fi
# 4. the PyTorch peer on the same GPU, same models, sizes and batches
for m in "resnet50 256" "yolov5s 64"; do
    set -- $m
    step "peer-$1" 50 env LD_LIBRARY_PATH="$orig_ld" PYTHONUNBUFFERED=1 python3 scripts/peer_torch.py --device cuda --model "$1" --batch "$2" \
        --seconds 0.2 --json "$out/peer.jsonl"
done
# 5. ResNet50's largest layers at batch 256 (the stem, a 3x3 convolution of the first and the
#    third stage, the largest 1x1, the classifier's GEMM), timing only (no golden model: one
#    such layer's takes minutes on one core): GFLOP/s per layer and precision, for the share
#    of peak (int8: the convolutions as QLinearConv)
layers=(--case 'Conv(x=256x3x224x224:f32,w=64x3x7x7,kernel_shape=[7,7],pads=[3,3,3,3],strides=[2,2])'
        --case 'Conv(x=256x64x56x56:f32,w=64x64x3x3,kernel_shape=[3,3],pads=[1,1,1,1],strides=[1,1])'
        --case 'Conv(x=256x256x14x14:f32,w=256x256x3x3,kernel_shape=[3,3],pads=[1,1,1,1],strides=[1,1])'
        --case 'Conv(x=256x1024x14x14:f32,w=256x1024x1x1,kernel_shape=[1,1],pads=[0,0,0,0],strides=[1,1])'
        --case 'Gemm(a=256x2048:f32,b=1000x2048,c=1000,transB=1)')
for d in f32 f16 bf16 int8; do
    t=cuda
    [ "$d" = f32 ] && t=cuda,cuda:tf32
    step "layers-$d" 40 "$cc" bench ops --targets "$t" --baseline cuda "${layers[@]}" --dtype "$d" --no-check \
        --min-time 0.05 > "$work/layers-$d.md"
    cat "$work/layers-$d.md" >> "$out/layers.md"
done
# 6. the report and the side-by-side summary
step report 30 "$cc" report --db "$db" --run device-check --out "$out/report.md"
step summary 30 python3 scripts/device_summary.py "$db" "$out/peer.jsonl" "$out/summary.md"
xz -T0 -c "$db" > "$out/crosscheck.db.xz"
# 7. the quick op suite on opencl (NVIDIA's driver), in a database of its own, with the time left
if [ "$nv_opencl" = 1 ]; then
    left=$((${DEVICE_CHECK_BUDGET:-560} - ($(date +%s%N) - t_start) / 1000000000))
    if [ "$left" -ge 30 ]; then
        step opencl "$left" "$cc" run --quick --targets opencl --db "$work/opencl.db" --tag device-check \
            --timeout 30 --min-time 0.005 > /dev/null
        step opencl-report 20 "$cc" report --db "$work/opencl.db" --out "$out/opencl.md"
        xz -T0 -c "$work/opencl.db" > "$out/opencl.db.xz"
    else
        say "NVIDIA's OpenCL driver found, but only ${left} s are left: opencl not run"
    fi
fi
say "done in $(elapsed "$t_start") s; files in $out"

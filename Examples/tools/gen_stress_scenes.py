#!/usr/bin/env python3
"""Writes the scenes of the path and keyframe stress benchmarks (issue 23, BENCHMARKS.md
"Paths and keyframes at 10^5 and 10^6"), too large to keep in the repository.

  path-KIND-MODE-N.json   one 1280x720 layer; a polyline of N segments from x = 40 to 1240:
                          KIND wave:   y = 360 + 250 sin(14 pi t) (smooth, segments 0.001-0.1 px)
                          KIND zigzag: y = 360 + 250 sin(6 pi t) + uniform(-20, 20) (dense,
                                       every segment crosses its neighbours)
                          MODE stroke: `drawing`: addLines, strokePath, line width 3
                          MODE fill:   `drawing`: addLines, fillPath (nonzero)
                          MODE none:   `drawing`: addLines, beginPath (parsed, not drawn: the
                                       base that a drawing's time is measured against)
                          MODE shape:  a shapeLayer sublayer with the polyline as SVG path data,
                                       stroked 3 wide, not filled
  keyframes-MODE-N.json   a 20x20 layer whose position runs through N keyframes (a Lissajous
                          curve) with calculationMode MODE (linear, paced, cubicPaced), 10 s

Usage: gen_stress_scenes.py OUTDIR [N ...]   (default N: 100000 1000000)
       gen_stress_scenes.py --skia-cpu SCENE  (Skia's CPU time, process_time, for the
                                               scene's drawing, best of 2; needs skia-python)
Deterministic: the same N always gives the same scene.
"""
import json, math, os, random, sys

W, H = 1280, 720
CANVAS = {"width": W, "height": H, "scale": 1, "background": "#FFFFFF"}


def polyline(kind, n):
    rnd = random.Random(1)
    pts = []
    for i in range(n + 1):
        t = i / n
        if kind == "wave":
            y = 360 + 250 * math.sin(2 * math.pi * 7 * t)
        else:
            y = 360 + 250 * math.sin(2 * math.pi * 3 * t) + rnd.uniform(-20, 20)
        pts.append([round(40 + 1200 * t, 3), round(y, 3)])
    return pts


def path_scene(kind, mode, n):
    pts = polyline(kind, n)
    if mode == "shape":
        d = "M %g %g " % tuple(pts[0]) + " ".join("L %g %g" % tuple(p) for p in pts[1:])
        root = {"name": "root", "frame": [0, 0, W, H], "sublayers": [
            {"type": "shapeLayer", "frame": [0, 0, W, H], "path": d, "fillColor": None, "strokeColor": "#D0021B", "lineWidth": 3}]}
    else:
        last = {"stroke": "strokePath", "fill": "fillPath", "none": "beginPath"}[mode]
        root = {"name": "root", "frame": [0, 0, W, H], "drawing": [
            {"op": "setStrokeColor", "color": "#D0021B"}, {"op": "setFillColor", "color": "#4A90D9"},
            {"op": "setLineWidth", "width": 3}, {"op": "addLines", "between": pts}, {"op": last}]}
    return {"format": "layerkit-scene", "version": 1, "canvas": CANVAS, "root": root}


def keyframe_scene(mode, n):
    values = [[round(640 + 500 * math.cos(i * 0.001), 3), round(360 + 300 * math.sin(i * 0.0013), 3)] for i in range(n)]
    animation = {"type": "keyframe", "keyPath": "position", "values": values, "calculationMode": mode, "duration": 10, "repeatCount": 1e9}
    return {"format": "layerkit-scene", "version": 1, "canvas": CANVAS, "root": {"name": "root", "frame": [0, 0, W, H], "sublayers": [
        {"name": "dot", "frame": [0, 0, 20, 20], "backgroundColor": "#D0021B", "animations": [animation]}]}}


def skia_cpu(scene_path):
    import time
    import skia
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from skia_drawing import Replay
    root = json.load(open(scene_path))["root"]
    surface = skia.Surface(int(root["frame"][2]), int(root["frame"][3]))
    canvas, best = surface.getCanvas(), float("inf")
    for _ in range(2):
        t0 = time.process_time()
        canvas.clear(skia.ColorTRANSPARENT)
        replay = Replay(canvas)
        for op in root["drawing"]:
            replay.run(op)
        surface.flushAndSubmit(skia.GrSyncCpu.kYes)
        best = min(best, time.process_time() - t0)
    print("skia cpu ms: %.0f" % (best * 1000))


def main():
    if sys.argv[1:2] == ["--skia-cpu"]:
        return skia_cpu(sys.argv[2])
    out = sys.argv[1]
    counts = [int(a) for a in sys.argv[2:]] or [100000, 1000000]
    os.makedirs(out, exist_ok=True)
    for n in counts:
        scenes = {"path-%s-%s-%d" % (k, m, n): (path_scene, (k, m, n)) for k in ("wave", "zigzag") for m in ("stroke", "fill", "none", "shape")}
        scenes.update({"keyframes-%s-%d" % (m, n): (keyframe_scene, (m, n)) for m in ("linear", "paced", "cubicPaced")})
        for name, (make, args) in scenes.items():
            with open(os.path.join(out, name + ".json"), "w") as f:
                json.dump(make(*args), f)


if __name__ == "__main__":
    main()

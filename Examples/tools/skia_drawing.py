#!/usr/bin/env python3
"""Skia peer for custom drawing: replays the root layer's "drawing" of a LayerKit scene (the
CGContext calls of docs/scene-format.md) on a Skia CPU raster surface the size of the root's
bounds, as LayerKit's `display()` draws it, for speed comparison (`layerkit bench SCENE
--redisplay --backend cpu`, whose snapshot phase is that drawing) and as a second opinion on
pixels. Setup: `pip install skia-python numpy`.

Supports the operations the bench chart uses and their neighbours: the graphics state
(save/restore, CTM, colours, alpha, line width, cap, join, dashes), paths of lines and curves,
fill and stroke of paths and rectangles, and text (`setTextMatrix`, `drawText`: one line in the
font file fontconfig names for the family, or the file given, unhinted with subpixel
positions as LayerKit renders it; Skia places glyphs without shaping, which Latin digits and
words do not need). Both draw antialiased in a y-down space at 1 pixel
per point (Skia's own orientation; LayerKit flips Core Graphics' y-up space to it).

usage: skia_drawing.py SCENE.json [--frames N] [--out PNG]
prints: 'skia drawing ms: median M min m' over N frames, each a clear and a full replay
(parsing excluded; the surface is made once, its pixels end in memory like a bitmap context's).
"""
import argparse, json, math, statistics, subprocess, time
import skia


def color(c):
    if isinstance(c, str):
        h = c[1:]
        r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
        a = int(h[6:8], 16) if len(h) == 8 else 255
        return skia.Color(r, g, b, a)
    return skia.Color4f(*c).toColor()


CAPS = {"butt": skia.Paint.kButt_Cap, "round": skia.Paint.kRound_Cap, "square": skia.Paint.kSquare_Cap}
JOINS = {"miter": skia.Paint.kMiter_Join, "round": skia.Paint.kRound_Join, "bevel": skia.Paint.kBevel_Join}


TYPEFACES = {}


def font(name, size):
    """A Skia font for a scene's font (a family name, or a file when it has a "/" or a font
    file's extension) at `size`, rendered as LayerKit renders text: unhinted, antialiased,
    at fractional positions."""
    if name not in TYPEFACES:
        is_file = "/" in name or name.lower().endswith((".ttf", ".otf", ".ttc"))
        path = name if is_file else subprocess.run(["fc-match", "-f", "%{file}", name], capture_output=True,
                                                   text=True, check=True).stdout
        TYPEFACES[name] = skia.Typeface.MakeFromFile(path)
    f = skia.Font(TYPEFACES[name], size)
    f.setHinting(skia.FontHinting.kNone)
    f.setSubpixel(True)
    f.setEdging(skia.Font.Edging.kAntiAlias)
    return f


class Replay:
    """A CGContext's graphics state over a Skia canvas: Skia's save/restore keeps the matrix
    and clip; the paint parameters Core Graphics also saves are kept here."""

    def __init__(self, canvas):
        self.canvas = canvas
        self.state = {"fill": skia.ColorBLACK, "stroke": skia.ColorBLACK, "alpha": 1.0, "width": 1.0,
                      "cap": "butt", "join": "miter", "miter": 10.0, "dash": None}
        self.stack = []
        self.path = skia.Path()
        # Core Graphics' text matrix is not part of the graphics state.
        self.text_matrix = [1, 0, 0, 1, 0, 0]

    def paint(self, stroke):
        s = self.state
        p = skia.Paint(AntiAlias=True, Color=s["stroke" if stroke else "fill"])
        p.setAlphaf(p.getAlphaf() * s["alpha"])
        if stroke:
            p.setStyle(skia.Paint.kStroke_Style)
            p.setStrokeWidth(s["width"]); p.setStrokeCap(CAPS[s["cap"]]); p.setStrokeJoin(JOINS[s["join"]])
            p.setStrokeMiter(s["miter"])
            if s["dash"]:
                p.setPathEffect(skia.DashPathEffect.Make(*s["dash"]))
        return p

    def run(self, op):
        c, s, name = self.canvas, self.state, op["op"]
        if name == "saveGState": self.stack.append(dict(s)); c.save()
        elif name == "restoreGState":
            if self.stack: self.state = self.stack.pop(); c.restore()
        elif name == "translateBy": c.translate(op["x"], op["y"])
        elif name == "scaleBy": c.scale(op["x"], op["y"])
        elif name == "rotate": c.rotate(op["angle"])
        elif name == "setFillColor": s["fill"] = color(op["color"])
        elif name == "setStrokeColor": s["stroke"] = color(op["color"])
        elif name == "setAlpha": s["alpha"] = op["alpha"]
        elif name == "setLineWidth": s["width"] = op["width"]
        elif name == "setLineCap": s["cap"] = op["cap"]
        elif name == "setLineJoin": s["join"] = op["join"]
        elif name == "setMiterLimit": s["miter"] = op["limit"]
        elif name == "setLineDash": s["dash"] = (op["lengths"], op.get("phase", 0)) if op["lengths"] else None
        elif name == "beginPath": self.path = skia.Path()
        elif name == "move": self.path.moveTo(*op["to"])
        elif name == "addLine": self.path.lineTo(*op["to"])
        elif name == "addLines":
            pts = op["between"]
            if pts:
                self.path.moveTo(*pts[0])
                for p in pts[1:]: self.path.lineTo(*p)
        elif name == "addCurve": self.path.cubicTo(*op["control1"], *op["control2"], *op["to"])
        elif name == "addQuadCurve": self.path.quadTo(*op["control"], *op["to"])
        elif name == "addRect": self.path.addRect(skia.Rect.MakeXYWH(*op["rect"]))
        elif name == "addEllipse": self.path.addOval(skia.Rect.MakeXYWH(*op["in"]))
        elif name == "closePath": self.path.close()
        elif name == "fillPath":
            self.path.setFillType(skia.PathFillType.kEvenOdd if op.get("rule") == "evenOdd" else skia.PathFillType.kWinding)
            c.drawPath(self.path, self.paint(False)); self.path = skia.Path()
        elif name == "strokePath": c.drawPath(self.path, self.paint(True)); self.path = skia.Path()
        elif name == "fill": c.drawRect(skia.Rect.MakeXYWH(*op["rect"]), self.paint(False))
        elif name == "stroke": c.drawRect(skia.Rect.MakeXYWH(*op["rect"]), self.paint(True))
        elif name == "fillEllipse": c.drawOval(skia.Rect.MakeXYWH(*op["in"]), self.paint(False))
        elif name == "strokeEllipse": c.drawOval(skia.Rect.MakeXYWH(*op["in"]), self.paint(True))
        elif name == "setTextMatrix": self.text_matrix = op["transform"]
        elif name == "drawText":
            # Text space is y up (Core Graphics' glyphs); Skia's glyphs are y down.
            a, b, cc, d, tx, ty = self.text_matrix
            c.save(); c.translate(*op["at"])
            c.concat(skia.Matrix.MakeAll(a, cc, tx, b, d, ty, 0, 0, 1)); c.scale(1, -1)
            c.drawString(op["text"], 0, 0, font(op.get("font", "DejaVu Sans"), op["size"]), self.paint(False))
            c.restore()
        else: raise SystemExit("skia drawing: unsupported op %s" % name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scene"); ap.add_argument("--frames", type=int, default=20); ap.add_argument("--out")
    a = ap.parse_args()
    root = json.load(open(a.scene))["root"]
    w, h = (root["frame"] if "frame" in root else root["bounds"])[2:]
    ops = root["drawing"]
    surface = skia.Surface(math.ceil(w), math.ceil(h))
    canvas = surface.getCanvas()
    times = []
    for _ in range(a.frames + 3):
        t0 = time.perf_counter()
        canvas.clear(skia.ColorTRANSPARENT)
        canvas.save()
        replay = Replay(canvas)
        for op in ops: replay.run(op)
        canvas.restore()
        surface.flushAndSubmit(skia.GrSyncCpu.kYes)
        times.append((time.perf_counter() - t0) * 1000)
    times = times[3:]
    print("skia drawing ms: median %.3f min %.3f" % (statistics.median(times), min(times)))
    if a.out:
        surface.makeImageSnapshot().save(a.out, skia.kPNG)


if __name__ == "__main__":
    main()

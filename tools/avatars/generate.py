#!/usr/bin/env python3
"""Drawn avatars, one consistent style for every person on the site.

    python3 tools/avatars/generate.py            # writes assets/static/img/team/*.svg

Each avatar is a flat, front-facing bust on a round brand-palette background:
shoulders, neck, head, hair, brows, eyes and a smile. Skin tone, hair style
and colour, clothing and background follow from the person's slug (a hash),
so the same name always gives the same picture and regenerating changes
nothing. Feminine Polish first names (ending in -a) pick from the long-hair
styles. The SVG is decorative-free: the page's <img alt> names the person.
"""
import hashlib
import os
import sys

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "assets", "static", "img", "team")

BACKGROUNDS = [("#EDE9FE", "#C4B5FD"), ("#CFFAFE", "#67E8F9"), ("#E0E7FF", "#A5B4FC"), ("#ECFDF5", "#6EE7B7"), ("#F5F3FF", "#A78BFA")]
SKIN = ["#F6D7C3", "#EDC1A5", "#E0A97F", "#C98E62", "#A86F4C", "#7C4E32"]
HAIR = ["#1F1A17", "#3B2A20", "#5A3A22", "#8A5A2B", "#B7844F", "#D9B26F", "#6B6B6B", "#2E2A4F"]
CLOTHES = ["#1E1B4B", "#312E81", "#5B21B6", "#6D28D9", "#0E7490", "#047857", "#334155"]


def pick(h, i, seq):
    return seq[h[i] % len(seq)]


def hair_back(style, c):
    # Drawn behind the head (long hair falls behind the shoulders).
    if style == "long":
        return f'<path d="M62 112c0-40 26-66 58-66s58 26 58 66v72H62z" fill="{c}"/>'
    if style == "bob":
        return f'<path d="M64 110c0-38 25-62 56-62s56 24 56 62v40c0 8-6 12-14 12H78c-8 0-14-4-14-12z" fill="{c}"/>'
    if style == "bun":
        return f'<circle cx="120" cy="46" r="20" fill="{c}"/>'
    return ""


def hair_front(style, c):
    if style in ("long", "bob"):
        return f'<path d="M74 104c2-30 22-48 46-48s44 18 46 48c-14-4-30-14-38-28-10 16-30 26-54 28z" fill="{c}"/>'
    if style == "bun":
        return f'<path d="M76 102c2-28 20-44 44-44s42 16 44 44c-12-10-28-16-44-16s-32 6-44 16z" fill="{c}"/>'
    if style == "short":
        return f'<path d="M74 100c0-28 20-46 46-46s46 18 46 46c-6-8-12-12-18-14-8 4-22 6-34 4-14-2-26 2-40 10z" fill="{c}"/>'
    if style == "side":
        return f'<path d="M74 102c-2-30 20-50 48-50 26 0 44 18 44 44-20-2-38-8-50-20-6 12-22 22-42 26z" fill="{c}"/>'
    if style == "curly":
        bumps = "".join(f'<circle cx="{x}" cy="{y}" r="13" fill="{c}"/>' for x, y in [(84, 80), (100, 66), (120, 60), (140, 66), (156, 80), (166, 98), (74, 98)])
        return bumps
    if style == "crop":
        return f'<path d="M78 96c2-24 20-38 42-38s40 14 42 38c-12-6-26-9-42-9s-30 3-42 9z" fill="{c}"/>'
    return ""


def avatar(slug):
    h = hashlib.sha256(slug.encode()).digest()
    first = slug.split("-")[0]
    feminine = first.endswith("a")
    style = pick(h, 0, ["long", "bob", "bun"] if feminine else ["short", "side", "curly", "crop"])
    bg, accent = pick(h, 1, BACKGROUNDS)
    skin = pick(h, 2, SKIN)
    hair = pick(h, 3, HAIR)
    cloth = pick(h, 4, CLOTHES)
    beard = (not feminine) and h[5] % 3 == 0
    glasses = h[6] % 4 == 0
    cid = "c-" + slug
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 240 240" aria-hidden="true">',
        f'<defs><clipPath id="{cid}"><circle cx="120" cy="120" r="120"/></clipPath></defs>',
        f'<g clip-path="url(#{cid})">',
        f'<rect width="240" height="240" fill="{bg}"/>',
        f'<circle cx="{40 + h[7] % 160}" cy="{30 + h[8] % 50}" r="{36 + h[9] % 20}" fill="{accent}" opacity="0.55"/>',
        hair_back(style, hair),
        # shoulders and neck
        f'<path d="M30 240c0-46 36-76 90-76s90 30 90 76z" fill="{cloth}"/>',
        f'<path d="M104 146h32v26c0 8-7 14-16 14s-16-6-16-14z" fill="{skin}"/>',
        f'<path d="M98 172c6 10 14 15 22 15s16-5 22-15" fill="none" stroke="#ffffff" stroke-opacity="0.35" stroke-width="4" stroke-linecap="round"/>',
        # head and ears
        f'<ellipse cx="77" cy="112" rx="7" ry="10" fill="{skin}"/><ellipse cx="163" cy="112" rx="7" ry="10" fill="{skin}"/>',
        f'<ellipse cx="120" cy="106" rx="44" ry="50" fill="{skin}"/>',
    ]
    if beard:
        parts.append(f'<path d="M78 112c2 30 18 48 42 48s40-18 42-48c-6 10-14 14-20 14h-44c-6 0-14-4-20-14z" fill="{hair}"/>')
    parts += [
        hair_front(style, hair),
        # brows, eyes, smile
        f'<path d="M92 96q9-6 18 0M130 96q9-6 18 0" fill="none" stroke="{hair}" stroke-width="4" stroke-linecap="round"/>',
        '<circle cx="101" cy="109" r="4.5" fill="#1E1B4B"/><circle cx="139" cy="109" r="4.5" fill="#1E1B4B"/>',
        f'<path d="M106 132q14 12 28 0" fill="none" stroke="#9F3A3A" stroke-width="4" stroke-linecap="round"/>',
    ]
    if glasses:
        parts.append('<g fill="none" stroke="#1E1B4B" stroke-width="3"><circle cx="101" cy="109" r="12"/><circle cx="139" cy="109" r="12"/><path d="M113 109h14"/></g>')
    parts += ["</g>", "</svg>", ""]
    return "\n".join(p for p in parts if p)


def main(argv):
    os.makedirs(OUT, exist_ok=True)
    slugs = argv or sorted(f[:-4] for f in os.listdir(OUT) if f.endswith(".svg"))
    for slug in slugs:
        with open(os.path.join(OUT, slug + ".svg"), "w") as f:
            f.write(avatar(slug))
    print(f"wrote {len(slugs)} avatars to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main(sys.argv[1:])

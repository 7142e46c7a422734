#!/usr/bin/env python3
"""Draws the team's avatars (assets/static/img/team/*.svg) in one style.

The people on the site are invented stand-ins (sample: true), so they get
drawn portraits rather than photographs: a head and shoulders on a brand
gradient, with skin tone, hair style and colour, and clothing picked from
small palettes by a hash of the file name (stable across runs). Run:

    python3 tools/avatars/generate.py            # rewrites every avatar
    python3 tools/avatars/generate.py NAME ...   # only these (file stems)
"""
import hashlib
import pathlib
import sys

TEAM = pathlib.Path(__file__).resolve().parents[2] / "assets/static/img/team"

BACKGROUNDS = [("#6D28D9", "#06B6D4"), ("#4C1D95", "#7C3AED"), ("#312E81", "#0E7490"), ("#5B21B6", "#C4B5FD"), ("#1E1B4B", "#6D28D9")]
SKIN = ["#F5D0B5", "#EAB896", "#D9A27E", "#C68B63", "#A86F4C", "#F2C9A0"]
HAIR = ["#2B1B12", "#4A2E1B", "#6B4226", "#A0522D", "#D6B370", "#1F1F1F", "#8C8C8C"]
CLOTHES = ["#0F172A", "#1E3A8A", "#F8FAFC", "#0E7490", "#7C2D12", "#334155", "#BE185D"]
# Polish first names ending in -a are women's (with the usual exception).
MALE_A = {"kuba", "barnaba"}


def pick(seq, h, i):
    return seq[h[i] % len(seq)]


def female(stem):
    first = stem.split("-")[0]
    return first.endswith("a") and first not in MALE_A


def hair_back(style, color):
    if style == "long":
        return f'<path d="M66 112c0-42 24-68 54-68s54 26 54 68v74c-14 8-30 10-54 10s-40-2-54-10z" fill="{color}"/>'
    if style == "bob":
        return f'<path d="M70 110c0-40 22-64 50-64s50 24 50 64v34c-10 6-24 8-50 8s-40-2-50-8z" fill="{color}"/>'
    return ""


def hair_front(style, color):
    if style in ("long", "bob"):
        return f'<path d="M74 108c4-34 22-52 46-52s44 18 46 52c-16-4-34-16-44-30-8 16-26 26-48 30z" fill="{color}"/>'
    if style == "side":
        return f'<path d="M76 104c0-30 18-48 44-48 28 0 46 18 44 46-8-10-22-18-40-20-16-2-34 6-48 22z" fill="{color}"/>'
    if style == "bald":
        return f'<path d="M78 100c2-10 6-18 12-24-2 10-4 18-4 28zM162 100c-2-10-6-18-12-24 2 10 4 18 4 28z" fill="{color}"/>'
    return f'<path d="M76 106c-2-32 16-52 44-52s46 20 44 52c-6-14-18-22-44-24-26 2-38 10-44 24z" fill="{color}"/>'


def avatar(stem):
    h = hashlib.sha256(stem.encode()).digest()
    bg1, bg2 = pick(BACKGROUNDS, h, 0)
    skin = pick(SKIN, h, 1)
    hair = pick(HAIR, h, 2)
    cloth = pick(CLOTHES, h, 3)
    styles = ["long", "bob"] if female(stem) else ["short", "side", "short", "bald"]
    style = pick(styles, h, 4)
    if style == "bald":
        hair = pick(HAIR[3:], h, 5)
    collar = "#FFFFFF" if cloth != "#F8FAFC" else "#CBD5E1"
    glasses = h[6] % 4 == 0
    beard = not female(stem) and h[7] % 4 == 0
    gid = "g-" + stem
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 240 240">',
        f'<defs><linearGradient id="{gid}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="{bg1}"/><stop offset="1" stop-color="{bg2}"/></linearGradient></defs>',
        f'<rect width="240" height="240" fill="url(#{gid})"/>',
        '<circle cx="196" cy="44" r="54" fill="#FFFFFF" opacity=".08"/>',
        hair_back(style, hair),
        f'<path d="M40 240c4-44 36-66 80-66s76 22 80 66z" fill="{cloth}"/>',
        f'<path d="M104 164h32v20c0 10-8 16-16 16s-16-6-16-16z" fill="{skin}"/>',
        f'<path d="M100 180l20 22 20-22 8 6-28 30-28-30z" fill="{collar}" opacity=".9"/>',
        f'<ellipse cx="120" cy="116" rx="44" ry="52" fill="{skin}"/>',
        f'<ellipse cx="76" cy="120" rx="7" ry="11" fill="{skin}"/><ellipse cx="164" cy="120" rx="7" ry="11" fill="{skin}"/>',
        hair_front(style, hair),
        '<circle cx="103" cy="118" r="4.5" fill="#1E1B4B"/><circle cx="137" cy="118" r="4.5" fill="#1E1B4B"/>',
        f'<path d="M96 106q7-5 14 0M130 106q7-5 14 0" stroke="{hair}" stroke-width="3.5" fill="none" stroke-linecap="round"/>',
        '<path d="M106 144q14 11 28 0" stroke="#9F1239" stroke-width="3.5" fill="none" stroke-linecap="round"/>',
    ]
    if beard:
        parts.append(f'<path d="M78 126c2 30 18 46 42 46s40-16 42-46c-6 12-14 18-22 18-6-6-34-6-40 0-8 0-16-6-22-18z" fill="{hair}" opacity=".9"/>')
    if glasses:
        parts.append('<g fill="none" stroke="#1E1B4B" stroke-width="3"><circle cx="103" cy="118" r="13"/><circle cx="137" cy="118" r="13"/><path d="M116 118h8"/></g>')
    parts.append("</svg>\n")
    return "\n".join(p for p in parts if p)


def main(names):
    files = [TEAM / f"{n}.svg" for n in names] if names else sorted(TEAM.glob("*.svg"))
    for f in files:
        f.write_text(avatar(f.stem))
    print(f"wrote {len(files)} avatars to {TEAM}")


if __name__ == "__main__":
    main(sys.argv[1:])

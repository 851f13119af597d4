#!/usr/bin/env python3
"""The layers of core/ (docs/architecture.md): each folder is one layer and includes only the
layers below it. Fails, naming the file and the line, when an include in core/ goes upward or
sideways (two folders of one layer, or two folders that include each other), when a file at
core/'s root includes a folder, when a folder of core/ has no place in LAYERS, or when ui/
makes a backend of its own (a backend, or a thread beside the render worker that runs one).

With the built libraries as further arguments, the same rule holds where a call crosses
folders without an include (a prototype written in place): each undefined symbol of an
object is looked up in the objects that define it (nm).

Usage: check_layers.py [SOURCE_ROOT [LIBRARY.a ...]]
       (SOURCE_ROOT defaults to LUMEN_SOURCE_ROOT, else this file's ../..)
"""
import os
import re
import subprocess
import sys

# Bottom to top. Folders of one entry are one layer: neither may include the other.
# "." is core/'s root: error, i18n, the image and its budget, text, timings.
LAYERS = [
    ('.',),
    ('ops',),           # pure math (gcc and nvcc) and CPU references; no backend
    ('color',),         # lcms2: profiles, conversion, the view transform's tables
    ('io',),            # files: loaders (FITS too), savers, metadata, atomic writes
    ('lens',),          # lensfun: the lens correction's lookup (ops/ gets it through LmOpContext)
    ('hdr', 'astro', 'raw', 'detect'),  # their math and CPU references: merges, tone mapping, detection,
                              # raw development, object detection in photos
    ('backend',),       # runs operations on the CPU or a device (with kernels/)
    ('edit',),          # the pipeline of a look, its history and sidecar
    ('merge',),         # the HDR job: a stack loaded, checked, aligned, merged on a backend
    ('render',),        # the render worker and its job kinds
    ('library',),       # folders of photos: tags, thumbnails, presets, selective paste
    ('batch',),         # lumen-cli batch's stages
]

# Folders outside core/ that core/ may include, and the lowest layer that may include each.
OUTSIDE = {'kernels': 'backend'}

# Temporary exceptions, each named with the work that removes it: (file, included file) in
# EXCEPTIONS, a ui/ file in UI_EXCEPTIONS.
EXCEPTIONS = {}
UI_EXCEPTIONS = {
    # Apply Edits to Photos renders each photo on a render worker of its own, beside the
    # window's: its exports become jobs of the window's worker once a job can carry its own
    # source.
    'ui/window-apply.c': 'Apply Edits as jobs of the window\'s worker',
}
# The window's one render worker is made by the window itself.
WORKER_OWNER = 'ui/window.c'

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE = ('.c', '.h', '.cu', '.cuh', '.cpp')
# ui/ must not make a backend: lm_backend_new, lm_backend_cpu_new, lm_backend_cuda_new…
BACKEND_NEW = re.compile(r'\blm_backend_(?:\w+_)?new\w*\s*\(')
THREAD_NEW = re.compile(r'\b(?:g_thread_new|g_thread_try_new|pthread_create)\s*\(')
WORKER_NEW = re.compile(r'\blm_render_worker_new\s*\(')
BACKEND_USE = re.compile(r'\bLmBackend\b|\blm_backend_\w+\s*\(')


def rank_of():
    return {folder: i for i, layer in enumerate(LAYERS) for folder in layer}


def sources(root, top):
    for base, dirs, files in os.walk(os.path.join(root, top)):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(SOURCE):
                yield os.path.relpath(os.path.join(base, name), root)


def folder_of(path):
    """core/FOLDER/... → FOLDER, core/x.c → '.', else None; kernels/... → 'kernels'."""
    parts = path.split('/')
    if parts[0] == 'core':
        return parts[1] if len(parts) > 2 else '.'
    if parts[0] in OUTSIDE:
        return parts[0]
    return None


def resolve(root, path, included):
    """The included file as a path from ROOT: beside PATH first, then from ROOT (the include
    directories are the root and the build's config.h)."""
    beside = os.path.normpath(os.path.join(os.path.dirname(path), included))
    if os.path.exists(os.path.join(root, beside)):
        return beside
    if os.path.exists(os.path.join(root, included)):
        return os.path.normpath(included)
    return None


def includes(root, path):
    """PATH's quoted includes: (line number, the included file as a path from ROOT, or None
    where it is none of the tree's, as config.h)."""
    with open(os.path.join(root, path), encoding='utf-8', errors='replace') as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, resolve(root, path, m.group(1))


def check_core(root, problems):
    rank = rank_of()
    used = set()
    edges = {}
    for path in sources(root, 'core'):
        here = folder_of(path)
        if here not in rank:
            problems.append(f'core/{here}/ is not in the layer table (tests/layers/check_layers.py, '
                            f'docs/architecture.md): give it a place')
            rank[here] = None
            continue
        for number, target in includes(root, path):
            there = folder_of(target) if target else None
            if target and there is None:
                problems.append(f'{path}:{number}: includes {target}: core/ includes nothing '
                                f'of {target.split("/")[0]}/')
                continue
            if there is None or there == here:
                continue
            if (path, target) in EXCEPTIONS:
                used.add((path, target))
                continue
            edges.setdefault((here, there), f'{path}:{number}')
            where = f'{path}:{number}: includes {target}'
            if there in OUTSIDE:
                if rank[here] < rank[OUTSIDE[there]]:
                    problems.append(f'{where}: {there}/ is for {OUTSIDE[there]}/ and the layers '
                                    f'above it')
            elif here == '.':
                problems.append(f'{where}: a file at core/\'s root includes no folder')
            elif rank.get(there) is None:
                continue  # reported above as a folder without a place
            elif rank[there] == rank[here]:
                problems.append(f'{where}: {here}/ and {there}/ are one layer and include '
                                f'neither the other')
            elif rank[there] > rank[here]:
                problems.append(f'{where}: {here}/ is below {there}/ and includes only '
                                f'downward')
    for (a, b), at in sorted(edges.items()):
        if a < b and (b, a) in edges and '.' not in (a, b):
            problems.append(f'{a}/ and {b}/ include each other ({at} and {edges[(b, a)]})')
    for pair, work in EXCEPTIONS.items():
        if pair not in used:
            print(f'note: the exception {pair[0]} → {pair[1]} ({work}) is no longer needed: '
                  f'remove it', file=sys.stderr)


# What device code may include besides its own headers: the math headers that gcc compiles too.
KERNELS_MAY_INCLUDE = ('core/ops', 'core/hdr', 'core/astro', 'core/detect')


def check_kernels(root, problems):
    """kernels/ includes its own headers and the -math.h headers of ops/, hdr/, astro/ and
    detect/ (and the operation list) only: device code sees no GLib and no layer above the math."""
    for path in sources(root, 'kernels'):
        for number, target in includes(root, path):
            if target is None or os.path.dirname(target) == 'kernels':
                continue
            math = target.endswith(('-math.h', 'op-list.h'))
            if os.path.dirname(target) not in KERNELS_MAY_INCLUDE or not math:
                problems.append(f'{path}:{number}: includes {target}: kernels/ includes its own '
                                f'headers and the math headers of ops/, hdr/, astro/ and detect/ only')


def member_folder(root, member):
    """The folder of core/ an archive member was built from (meson names core/io/io.c's object
    io_io.c.o), 'kernels' for device code, None for what is not ours."""
    name = os.path.basename(member)
    if 'kernels' in member.split('/')[0] or not name.endswith('.c.o'):
        return 'kernels' if 'kernels' in member else None
    head = name.split('_', 1)[0]
    if '_' in name and os.path.isdir(os.path.join(root, 'core', head)):
        return head
    return '.'


def check_links(root, archives, problems):
    rank = rank_of()
    defined, undefined = {}, []
    for archive in archives:
        out = subprocess.run(['nm', '-g', archive], capture_output=True, text=True, check=True).stdout
        member = None
        for line in out.splitlines():
            if line.endswith(':'):
                member = line[:-1]
                continue
            fields = line.split()
            if len(fields) == 3 and fields[1] in 'TDBRVW':
                defined.setdefault(fields[2], member)
            elif len(fields) == 2 and fields[0] == 'U' and member:
                undefined.append((member, fields[1]))
    # Each exception as (the object of its file, the folder it may call): core/ops/wb.c's object
    # is ops_wb.c.o.
    allowed = {(src.split('/', 1)[1].replace('/', '_') + '.o', folder_of(dst)) for src, dst in EXCEPTIONS}
    seen = set()
    for member, symbol in undefined:
        where = defined.get(symbol)
        if where is None:
            continue
        here, there = member_folder(root, member), member_folder(root, where)
        if None in (here, there) or here == there or rank.get(here) is None:
            continue
        if there == 'kernels':
            if rank[here] >= rank[OUTSIDE['kernels']]:
                continue
        elif rank.get(there) is not None and rank[there] < rank[here]:
            continue
        if (os.path.basename(member), there) in allowed or (member, there) in seen:
            continue
        seen.add((member, there))
        problems.append(f'{os.path.basename(member)} calls {symbol} of {os.path.basename(where)}: '
                        f'{here}/ calls only the layers below it')


def check_ui(root, problems):
    used = set()
    for path in sources(root, 'ui'):
        with open(os.path.join(root, path), encoding='utf-8', errors='replace') as f:
            text = f.read()
        found = []
        for number, line in enumerate(text.splitlines(), 1):
            if BACKEND_NEW.search(line):
                found.append(f'{path}:{number}: ui/ makes a backend of its own; the render '
                             f'worker (core/render) owns the backends and the device')
            if WORKER_NEW.search(line) and path != WORKER_OWNER:
                found.append(f'{path}:{number}: ui/ makes a second render worker (a second thread '
                             f'with the device); the window\'s one worker runs its jobs')
        if path in UI_EXCEPTIONS:
            if found:
                used.add(path)
            continue
        problems.extend(found)
        thread = THREAD_NEW.search(text)
        if thread and BACKEND_USE.search(text):
            number = text.count('\n', 0, thread.start()) + 1
            problems.append(f'{path}:{number}: ui/ starts a thread in a file that runs a backend; '
                            f'work on the device goes to the render worker (core/render)')
    for path, work in UI_EXCEPTIONS.items():
        if path not in used:
            print(f'note: the exception {path} ({work}) is no longer needed: remove it',
                  file=sys.stderr)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        'LUMEN_SOURCE_ROOT', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    if not os.path.isdir(os.path.join(root, 'core')):
        print(f'{root}: no core/ here', file=sys.stderr)
        return 2
    problems = []
    check_core(root, problems)
    check_kernels(root, problems)
    check_links(root, sys.argv[2:], problems)
    check_ui(root, problems)
    for p in problems:
        print(p)
    if problems:
        print(f'{len(problems)} layer rule(s) broken (docs/architecture.md, "Layers")')
        return 1
    print('core/ includes and calls only downward; ui/ makes no backend')
    return 0


if __name__ == '__main__':
    sys.exit(main())

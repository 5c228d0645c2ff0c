// The completion scripts, written from the command tree (./tree.ts). Each script holds the
// tree as data (commands, flags, which flags take a value, known values) and walks the words typed
// so far the way commander reads them: a word naming a subcommand descends, a flag that takes a
// value swallows the next word, anything else is a positional argument.
import type { Flag, Node } from './tree.js';

export function script(shell: 'bash' | 'zsh' | 'fish', root: Node): string {
  return { bash, zsh, fish }[shell](root);
}

const all = (n: Node): Node[] => [n, ...n.commands.flatMap(all)];
const key = (n: Node) => n.path.join(' ');
const last = (n: Node) => n.path[n.path.length - 1];
/** single-quoted for bash and zsh */
const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const HEADER = (
  shell: string,
) => `# ${shell} completion for vmv, generated from its command tree by \`vmv completion ${shell}\`.
# Regenerate it after upgrading vmv. Install: see "Shell completion" in vmv's docs/terminal.md.`;

/** `case` entries of the values a flag or a positional argument takes, where the tree knows them */
function valueCases(root: Node, line: (pattern: string, values: string[]) => string): string[] {
  const exact: string[] = [];
  const rest: string[] = [];
  for (const n of all(root)) {
    for (const f of n.options)
      if (f.choices?.length) for (const name of f.names) exact.push(line(sq(`${key(n)}|${name}`), f.choices));
    n.args.forEach((a, i) => {
      if (!a.choices?.length) return;
      exact.push(line(sq(`${key(n)}|#${i}`), a.choices));
      // a variadic argument takes every later position too
      if (a.variadic) rest.push(line(`${sq(`${key(n)}|#`)}*`, a.choices));
    });
  }
  return [...exact, ...rest];
}

const names = (flags: Flag[], which: (f: Flag) => boolean = () => true) =>
  flags
    .filter(which)
    .flatMap((f) => f.names)
    .join(' ');

function bash(root: Node): string {
  const nodes = all(root).map(
    (n) =>
      `    ${sq(key(n))}) _vmv_cmds=${sq(n.commands.map(last).join(' '))} _vmv_opts=${sq(names(n.options))} _vmv_vopts=${sq(names(n.options, (f) => f.value))} ;;`,
  );
  const values = valueCases(root, (p, v) => `    ${p}) _vmv_vals=${sq(v.join(' '))} ;;`);
  return `${HEADER('bash')}

# sets _vmv_cmds (subcommands), _vmv_opts (flags) and _vmv_vopts (flags taking a value) of a command path
_vmv_node() {
  _vmv_cmds='' _vmv_opts='' _vmv_vopts=''
  case $1 in
${nodes.join('\n')}
  esac
}

# sets _vmv_vals: the values of "PATH|--flag" or of "PATH|#N" (the Nth positional argument)
_vmv_values() {
  _vmv_vals=''
  case $1 in
${values.join('\n')}
  esac
}

_vmv_completion() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} vpath='' w i skip=0 npos=0
  local _vmv_cmds _vmv_opts _vmv_vopts _vmv_vals
  COMPREPLY=()
  _vmv_node ''
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    # bash splits --flag=value at the "=": the value follows it
    if [[ $w == = ]]; then skip=1; continue; fi
    if ((skip)); then skip=0; continue; fi
    case $w in
      -*=*) ;;
      -*) [[ " $_vmv_vopts " == *" $w "* ]] && skip=1 ;;
      *)
        if [[ " $_vmv_cmds " == *" $w "* ]]; then
          vpath=\${vpath:+$vpath }$w npos=0
          _vmv_node "$vpath"
        else
          npos=$((npos + 1))
        fi ;;
    esac
  done
  if [[ $cur == = ]]; then
    cur='' skip=1
  elif ((skip)) && [[ $prev == = ]]; then
    prev=\${COMP_WORDS[COMP_CWORD-2]}
  fi
  if ((skip)); then
    _vmv_values "$vpath|$prev"
  elif [[ $cur == -* ]]; then
    _vmv_vals=$_vmv_opts
  elif [[ -n $_vmv_cmds ]]; then
    _vmv_vals=$_vmv_cmds
  else
    _vmv_values "$vpath|#$npos"
  fi
  # nothing known: bash completes file names (complete -o default)
  [[ -n $_vmv_vals ]] && COMPREPLY=($(compgen -W "$_vmv_vals" -- "$cur"))
  return 0
}

complete -o default -F _vmv_completion vmv
`;
}

function zsh(root: Node): string {
  const described = (name: string, description: string) => sq(`${name.replace(/:/g, '\\:')}:${oneLine(description)}`);
  const nodes = all(root).map((n) =>
    [
      `    (${sq(key(n))})`,
      `      cmds=(${n.commands.map((c) => described(last(c), c.description)).join(' ')})`,
      `      cmdnames=${sq(` ${n.commands.map(last).join(' ')} `)}`,
      `      opts=(${n.options.flatMap((f) => f.names.map((name) => described(name, f.description))).join(' ')})`,
      `      vopts=${sq(` ${names(n.options, (f) => f.value)} `)} ;;`,
    ].join('\n'),
  );
  const values = valueCases(root, (p, v) => `    (${p}) vals=(${v.map(sq).join(' ')}) ;;`);
  return `#compdef vmv
${HEADER('zsh')}

# sets cmds and opts ("name:description"), cmdnames and vopts (flags taking a value) of a command path
_vmv_node() {
  cmds=() opts=() cmdnames='' vopts=''
  case $1 in
${nodes.join('\n')}
  esac
}

# sets vals: the values of "PATH|--flag" or of "PATH|#N" (the Nth positional argument)
_vmv_values() {
  vals=()
  case $1 in
${values.join('\n')}
  esac
}

_vmv() {
  local -a cmds opts vals
  local cmdnames vopts vpath='' w cur=\${words[CURRENT]}
  integer i skip=0 npos=0
  _vmv_node ''
  for ((i = 2; i < CURRENT; i++)); do
    w=\${words[i]}
    if ((skip)); then skip=0; continue; fi
    case $w in
      (-*=*) ;;
      (-*) [[ $vopts == *" $w "* ]] && skip=1 ;;
      (*)
        if [[ $cmdnames == *" $w "* ]]; then
          vpath=\${vpath:+$vpath }$w npos=0
          _vmv_node "$vpath"
        else
          npos+=1
        fi ;;
    esac
  done
  if ((skip)); then
    _vmv_values "$vpath|\${words[CURRENT-1]}"
  elif [[ $cur == -* ]]; then
    _describe -t options option opts
    return
  elif ((\${#cmds})); then
    _describe -t commands command cmds
    return
  else
    _vmv_values "$vpath|#$npos"
  fi
  if ((\${#vals})); then compadd -a vals; else _files; fi
}

if [[ \${funcstack[1]} == _vmv ]]; then _vmv "$@"; else compdef _vmv vmv; fi
`;
}

/** fish's functions that find the command path of the words before the cursor (kept for the line) and test it. */
const FISH_PATH = `# the command path of the words before the cursor, e.g. "numbers config set"
function __vmv_path
    set -l line (commandline -pc)
    if test "$line" = "$__vmv_line"
        echo $__vmv_cached
        return
    end
    set -l words (commandline -opc)
    set -e words[1]
    set -l p ''
    set -l skip 0
    __vmv_node ''
    for w in $words
        if test $skip = 1
            set skip 0
            continue
        end
        switch $w
            case '-*=*'
            case '-*'
                contains -- $w $__vmv_vopts; and set skip 1
            case '*'
                if contains -- $w $__vmv_cmds
                    set p (string trim -- "$p $w")
                    __vmv_node $p
                end
        end
    end
    set -g __vmv_line $line
    set -g __vmv_cached $p
    echo $p
end

function __vmv_at
    set -l p (__vmv_path)
    test "$p" = "$argv[1]"
end`;

function fish(root: Node): string {
  /** single-quoted for fish */
  const fq = (s: string) => `'${s.replace(/[\\']/g, '\\$&')}'`;
  const nodes = all(root).map(
    (n) =>
      `        case ${fq(key(n))}\n            set -g __vmv_cmds ${n.commands.map((c) => fq(last(c))).join(' ')}\n            set -g __vmv_vopts ${n.options
        .filter((f) => f.value)
        .flatMap((f) => f.names.map(fq))
        .join(' ')}`,
  );
  /** what a flag takes: one of its choices (-x -a, nothing else), any value (-r), or nothing */
  const takes = (f: Flag) => {
    if (f.choices?.length) return `-x -a ${fq(f.choices.join(' '))}`;
    return f.value ? '-r' : '';
  };
  const flag = (f: Flag) =>
    [
      ...f.names.map((n) => (n.startsWith('--') ? `-l ${fq(n.slice(2))}` : `-s ${fq(n.slice(1))}`)),
      takes(f),
      `-d ${fq(oneLine(f.description))}`,
    ]
      .filter(Boolean)
      .join(' ');
  const lines: string[] = [];
  const rootNames = new Set(root.options.flatMap((f) => f.names));
  for (const f of root.options) lines.push(`complete -c vmv ${flag(f)}`);
  for (const n of all(root)) {
    const at = `-n ${fq(`__vmv_at ${fq(key(n))}`)}`;
    for (const c of n.commands) lines.push(`complete -c vmv ${at} -a ${fq(last(c))} -d ${fq(oneLine(c.description))}`);
    for (const f of n.options)
      if (!f.names.every((x) => rootNames.has(x))) lines.push(`complete -c vmv ${at} ${flag(f)}`);
    const choices = n.args.flatMap((a) => a.choices ?? []);
    if (choices.length) lines.push(`complete -c vmv ${at} -a ${fq(choices.join(' '))}`);
    else if (n.args.length && !n.commands.length) lines.push(`complete -c vmv ${at} -F`);
  }
  return `${HEADER('fish')}

# sets __vmv_cmds (subcommands) and __vmv_vopts (flags taking a value) of a command path
function __vmv_node
    set -g __vmv_cmds
    set -g __vmv_vopts
    switch $argv[1]
${nodes.join('\n')}
    end
end

${FISH_PATH}

complete -c vmv -f
${lines.join('\n')}
`;
}

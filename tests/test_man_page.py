#!/usr/bin/env python3
# Checks that the manual page and the bash completion keep up with the program: every command of
# `gonu --help` and every option of each `gonu COMMAND --help` must be documented in tools/gonu.1
# (in that command's options section, or in RULE OPTIONS when that section names the command) and
# offered by tools/completion/gonu.bash for that command; the completion must also name every
# rule set of `gonu rules`. An option added to the program without both fails this test.
# Usage: test_man_page.py GONU_BINARY MAN_PAGE COMPLETION_FILE   (registered in tests/CMakeLists.txt)
import re
import subprocess
import sys


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def commands(gonu):
    text = run(gonu, "--help")
    listed = text.split("commands:", 1)[1]
    return [line.split()[0] for line in listed.splitlines() if line.strip()]


def options(gonu, command):
    """The long options of a command's --help ('--json', ...), with -h as '--help'."""
    text = run(gonu, command, "--help").split("options:", 1)[1]
    return sorted(set(re.findall(r"^\s+(?:-\w \[ )?(--[a-z][a-z0-9-]*)", text, re.M)))


def man_sections(path):
    """The page's sections, name -> text with roff's escaped hyphens made plain."""
    sections, name = {}, ""
    for line in open(path, encoding="utf-8"):
        line = line.replace("\\-", "-")
        if line.startswith(".SH "):
            name = line[4:].strip().strip('"')
            sections[name] = ""
        else:
            sections[name] = sections.get(name, "") + line
    return sections


def names(text, option):
    return re.search(r"(?<![\w-])" + re.escape(option) + r"(?![\w-])", text) is not None


def check_man_page(gonu, sections, problems):
    page = "".join(sections.values())
    rule_section = sections.get("RULE OPTIONS", "")
    for command in commands(gonu):
        if not names(sections.get("COMMANDS", ""), "gonu " + command):
            problems.append(f"man page: COMMANDS does not describe 'gonu {command}'")
        own = sections.get("OPTIONS OF GONU " + command.upper(), "")
        takes_rules = re.search(r"^\.BR? " + re.escape(command) + r"\b", rule_section.split(".TP", 1)[0], re.M)
        for option in options(gonu, command):
            if option == "--help":
                if not names(page, "--help"):
                    problems.append("man page: --help is not described")
            elif not (names(own, option) or (takes_rules and names(rule_section, option))):
                problems.append(f"man page: 'gonu {command} {option}' is not documented "
                                f"(section OPTIONS OF GONU {command.upper()} or RULE OPTIONS)")


def completion_options(completion, command):
    """The words the completion's _gonu_options offers for a command (rule options expanded)."""
    body = completion.split("_gonu_options() {", 1)[1].split("\n}", 1)[0]
    rule_options = re.search(r'_gonu_rule_options="([^"]*)"', completion).group(1)
    for case in re.finditer(r"^\s+([a-z| -]+)\)(.*?)(?=^\s+[a-z| -]+\)|\besac\b)", body, re.M | re.S):
        if command in [c.strip() for c in case.group(1).split("|")]:
            return set(case.group(2).replace("$_gonu_rule_options", rule_options).replace('"', " ").split())
    return set()


def check_completion(gonu, completion, problems):
    first = re.search(r'COMP_CWORD == 1.*?compgen -W "([^"]*)"', completion, re.S).group(1).split()
    for command in commands(gonu):
        if command not in first:
            problems.append(f"completion: the command '{command}' is not offered")
        offered = completion_options(completion, command)
        for option in options(gonu, command):
            if option not in offered:
                problems.append(f"completion: 'gonu {command} {option}' is not offered")
    rule_sets = re.findall(r"^(\w+): board", run(gonu, "rules"), re.M)
    values = re.search(r'--rules\) mapfile -t COMPREPLY < <\(compgen -W "([^"]*)"', completion).group(1).split()
    for name in rule_sets:
        if name not in values:
            problems.append(f"completion: the rule set '{name}' is not offered after --rules")


def main():
    gonu, man_page, completion_file = sys.argv[1:4]
    problems = []
    check_man_page(gonu, man_sections(man_page), problems)
    check_completion(gonu, open(completion_file, encoding="utf-8").read(), problems)
    for p in problems:
        print(p)
    checked = sum(len(options(gonu, c)) for c in commands(gonu))
    print(f"{len(commands(gonu))} commands, {checked} command options checked: "
          f"{'OK' if not problems else str(len(problems)) + ' problems'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

package corpus

import "slices"

// gettextPackages are the packages whose MO catalogues (and GNOME help)
// the corpus reads for every language: GNOME, KDE, Xfce, MATE and
// Cinnamon applications and libraries, GNU and Debian tools, games. Each
// ships every language's catalogue, so the list is the same for all
// languages. It was chosen by measuring, on Debian 12, which of about 400
// packages with translations contribute pairs to the published corpus
// (docs/data.md gives the figures); packages are in Debian main, so apt
// finds them on any mirror of the release.
var gettextPackages = []string{
	"akregator", "anjuta-common", "apt", "aptitude-common", "atril-common", "audacity-data",
	"bash", "binutils-common", "blender-data", "brasero-common", "caja-common",
	"cinnamon-l10n", "claws-mail-i18n", "coreutils", "deluge-common", "dia-common",
	"digikam-data", "dolphin", "dpkg", "e2fsprogs-l10n", "engrampa-common", "eog",
	"epiphany-browser-data", "evince-common", "evolution-common",
	"evolution-data-server-common", "file-roller", "filezilla-common", "fontforge-common",
	"freeciv-data", "gcc-12-locales", "gedit-common", "gettext", "gimp-data", "git",
	"gnome-control-center-data", "gnome-disk-utility", "gnome-font-viewer",
	"gnome-shell-common", "gnome-software-common", "gnome-terminal-data", "gnome-user-docs",
	"gnucash-common", "gnumeric-common", "gnupg-l10n", "gramps", "gucharmap",
	"hexchat-common", "ibus-data", "inkscape", "iso-codes", "k3b-i18n", "kdenlive-data",
	"kdepim-addons", "kdevelop-l10n", "kile-l10n", "konsole", "korganizer", "krita-l10n",
	"kstars-data", "ktorrent-data", "kwin-data", "libapt-pkg6.0", "libc-l10n",
	"libglib2.0-data", "libgphoto2-l10n", "libgtk-3-common", "libgtk-4-common",
	"libkf5akonadi-data", "libkf5akonadicalendar-data", "libkf5calendarsupport-data",
	"libkf5eventviews-data", "libkf5incidenceeditor-data", "libkf5ksieve-data",
	"libkf5ldap-data", "libkf5libkleo-data", "libkf5mailcommon-data",
	"libkf5mailtransport-data", "libkf5pimcommon-data", "libkf5pimtextedit-data",
	"libkf5unitconversion-data", "libvirt-l10n", "lyx-common", "nautilus-data", "okular",
	"pidgin-data", "plasma-desktop-data", "rhythmbox-data", "rpm-i18n", "shotwell-common",
	"synaptic", "thunar-data", "totem-common", "util-linux-locales", "vlc-l10n",
	"wesnoth-1.16-data", "wordpress-l10n",
}

// liboPackages returns LibreOffice's language and help packs for lang.
func liboPackages(lang string) []string {
	code := map[string]string{"zh": "zh-cn"}[lang]
	if code == "" {
		code = lang
	}
	return []string{"libreoffice-l10n-" + code, "libreoffice-help-" + code}
}

// DefaultPackages is the package list for langs: the gettext packages,
// LibreOffice's packs for each language, and LibreOffice's English help
// (the other side of its help pages).
func DefaultPackages(langs []string) []string {
	names := slices.Clone(gettextPackages)
	names = append(names, "libreoffice-help-en-us")
	for _, l := range langs {
		names = append(names, liboPackages(l)...)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

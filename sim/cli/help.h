/* help.h -- the text of `fleetsim help [TOPIC]`. */
#ifndef FS_HELP_H
#define FS_HELP_H

/* The help text of a topic (a command, or "scenario"), NULL if unknown. */
const char *fs_help_text(const char *topic);
/* NULL-terminated list of topics. */
extern const char *const fs_help_topics[];

#endif

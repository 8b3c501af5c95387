/* llm_session.h -- multi-turn sessions of generated LLM traffic
 * (sessions = turns(mean=M, think=T)).
 *
 * A chat or agent session sends its turns one after another; turn k's
 * prompt is everything turn k-1 had (its prompt and its output) and then
 * the new tokens, so with prefix caching it finds turn k-1's prompt
 * cached.  The workload's arrival process keeps its rate: each arrival is
 * the next turn of the session that has waited longest past its think
 * time, or the first turn of a new session when none is ready.  A session
 * has a geometric number of turns of mean M; think times are exponential
 * of mean T.  See llm_session.c. */
#ifndef FS_LLM_SESSION_H
#define FS_LLM_SESSION_H

#include <stdint.h>
#include <gsl/gsl_rng.h>
#include "models/service/service.h"

typedef struct fs_session_set fs_session_set;

/* Sessions of mean_turns turns on average, think_s seconds apart on
 * average, drawn from rng (owned by the caller).  NULL: out of memory. */
fs_session_set *fs_session_set_new(double mean_turns, double think_s,
                                   gsl_rng *rng);
void fs_session_set_free(fs_session_set *s);
/* Request r, arriving at its time with its drawn tokens, becomes a turn:
 * its prompt grows by its session's context; *session names the session
 * (its prefix identity, llm_prefix.h).  0, or -1 when out of memory. */
int fs_session_turn(fs_session_set *s, fs_request *r, uint64_t *session);

#endif

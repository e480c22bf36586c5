/* Superinstructions: an operand load fused into the arithmetic that consumes it.
 *
 * Why: most programs of a model are short (a = b + c*d, residuals of connections), so the
 * interpreter's cost is its dispatch per instruction. `LOAD s; ADD` becomes `ADDX s`
 * (s[sp] += x[s]) and `CONST k; MUL` becomes `MULK k`: one dispatch instead of two and no
 * stack traffic, the same arithmetic in the same order (so the same results, bit for bit).
 * The pass runs on finished programs (jump targets known): an instruction that a jump lands
 * on is never merged into the instruction before it, and jump targets are renumbered. */
#include <stdlib.h>

#include "compile/model_impl.h"

/* The fused opcode for load `a` followed by binary `b`, or -1. */
static int fused(int a, int b) {
  static const int with_x[] = {OP_ADDX, OP_SUBX, OP_MULX, OP_DIVX};
  static const int with_k[] = {OP_ADDK, OP_SUBK, OP_MULK, OP_DIVK};
  if (b < OP_ADD || b > OP_DIV) return -1;
  if (a == OP_LOAD) return with_x[b - OP_ADD];
  if (a == OP_CONST) return with_k[b - OP_ADD];
  return -1;
}

static int is_jump(int op) { return op == OP_JZ || op == OP_JMP; }

int st_prog_fuse(st_prog *p) {
  if (p->n < 2) return 0;
  unsigned char *target = calloc((size_t)p->n + 1, 1);
  int *newpc = malloc(sizeof(int) * ((size_t)p->n + 1));
  if (!target || !newpc) { free(target); free(newpc); return -1; }
  for (int i = 0; i < p->n; i++)
    if (is_jump(p->code[i].op)) target[p->code[i].arg] = 1;
  int m = 0;
  for (int i = 0; i < p->n; i++) {
    newpc[i] = m;
    int f = i + 1 < p->n && !target[i + 1] ? fused(p->code[i].op, p->code[i + 1].op) : -1;
    if (f >= 0) {
      p->code[m] = (st_ins){f, p->code[i].arg, p->code[i].k};
      newpc[++i] = m; /* nothing jumps here */
    } else {
      p->code[m] = p->code[i];
    }
    m++;
  }
  newpc[p->n] = m;
  for (int i = 0; i < m; i++)
    if (is_jump(p->code[i].op)) p->code[i].arg = newpc[p->code[i].arg];
  p->n = m;
  free(target);
  free(newpc);
  return 0;
}

/* The programs evaluated between events: block assignments and residuals, indicators. */
int st_fuse_programs(st_compiled *cm) {
  for (int k = 0; k < cm->nblocks; k++) {
    st_block *b = &cm->blocks[k];
    if (b->kind == BK_ASSIGN && st_prog_fuse(&b->assign)) return -1;
    if (b->kind != BK_ASSIGN && b->res)
      for (int i = 0; i < b->n; i++)
        if (st_prog_fuse(&b->res[i])) return -1;
  }
  for (int k = 0; k < cm->p.nrels; k++)
    if (st_prog_fuse(&cm->rels[k].ind)) return -1;
  return 0;
}

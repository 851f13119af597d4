/* The exactness of a cascade's stage sums (cascade-sums.h). */
#include <math.h>

#include "cascade-sums.h"

gboolean
lm_cascade_sums_exact (const LmCascade *c)
{
  for (unsigned s = 0; s < c->n_stages; s++)
    {
      const LmCascadeStage *stage = &c->stages[s];
      int least = G_MAXINT; /* the smallest leaf's exponent, frexp's */
      double reach = 0.0;   /* what the partial sums can reach, in absolute value */
      for (unsigned i = stage->first; i < stage->first + stage->n_stumps; i++)
        {
          const float leaves[2] = { c->stumps[i].left, c->stumps[i].right };
          for (int k = 0; k < 2; k++)
            if (leaves[k] != 0.0f)
              {
                int e;
                frexp (leaves[k], &e);
                least = MIN (least, e);
              }
          reach += MAX (fabs (c->stumps[i].left), fabs (c->stumps[i].right));
        }
      /* A float of exponent E is a multiple of 2^(E − 24): every leaf of the stage is a
       * multiple of that of the least, and a double holds 2⁵³ of them exactly. */
      if (least != G_MAXINT && !(reach < ldexp (1.0, 53 + least - 24)))
        return FALSE;
    }
  return TRUE;
}

C     A fixed-form program: its SPMD program is written in fixed form
C     too. X is distributed by columns; Y and W are aligned with its
C     columns and replicated along its first dimension, so every rank
C     computes all of them; the array statements on X run owner-computes.
      PROGRAM FIXED
      INTEGER N, I
      PARAMETER (N = 48)
      REAL X(3, N), Y(3, N), W(N)
!HPF$ DISTRIBUTE X(*, BLOCK)
!HPF$ ALIGN (*, :) WITH X(*, :) :: Y
!HPF$ ALIGN (:) WITH X(*, :) :: W
      DO 10 I = 1, N
        X(1, I) = MOD(I * 7, 19) - 3.0
        X(2, I) = MOD(I * 5, 11) * 1.0
        X(3, I) = MOD(I, 7) * 0.5
   10 CONTINUE
      X(3, :) = X(3, :) * 2.0 + X(1, :)
      Y = 0.0
      Y(1, :) = X(1, :) + 0.25 * X(2, :)
      Y(2, :) = X(3, :)
      W = Y(1, :)
      PRINT *, SUM(Y(1, :)), SUM(Y(2, :)), SUM(W), MAXVAL(X(3, 2:N))
      END

C     Jacobi and SOR iterations for the Laplace equation on a square,
C     the grid shared through COMMON and sized by PARAMETER.
      PROGRAM SOLVE
      INTEGER NX, NY, MAXIT
      PARAMETER (NX = 64, NY = 64, MAXIT = 500)
      REAL U(0:NX+1, 0:NY+1), UNEW(0:NX+1, 0:NY+1)
      REAL TOL, OMEGA, RESID
      INTEGER ITER
      COMMON /GRID/ U, UNEW
      COMMON /CTRL/ TOL, OMEGA
      EXTERNAL SWEEP, SOR
      INTRINSIC ABS, MAX
      TOL = 1.0E-5
      OMEGA = 1.5
      CALL INIT(NX, NY)
      DO 10 ITER = 1, MAXIT
         CALL SWEEP(NX, NY, RESID)
         IF (RESID .LT. TOL) GOTO 20
   10 CONTINUE
   20 PRINT *, 'JACOBI', ITER, RESID
      CALL INIT(NX, NY)
      ITER = 0
   30 ITER = ITER + 1
      CALL SOR(NX, NY, RESID)
      IF (RESID .GE. TOL .AND. ITER .LT. MAXIT) GO TO 30
      PRINT *, 'SOR', ITER, RESID
      END
C
      SUBROUTINE INIT(NX, NY)
      INTEGER NX, NY, I, J
      REAL U(0:65, 0:65), UNEW(0:65, 0:65)
      COMMON /GRID/ U, UNEW
      DO 10 J = 0, NY + 1
         DO 10 I = 0, NX + 1
            U(I,J) = 0.0
            IF (J .EQ. NY+1) U(I,J) = 1.0
            UNEW(I,J) = U(I,J)
   10 CONTINUE
      RETURN
      END
C
      SUBROUTINE SWEEP(NX, NY, RESID)
      INTEGER NX, NY, I, J
      REAL RESID, D
      REAL U(0:65, 0:65), UNEW(0:65, 0:65)
      COMMON /GRID/ U, UNEW
      RESID = 0.0
      DO 10 J = 1, NY
         DO 10 I = 1, NX
            UNEW(I,J) = 0.25 * (U(I-1,J) + U(I+1,J)
     &                        + U(I,J-1) + U(I,J+1))
            D = ABS(UNEW(I,J) - U(I,J))
            IF (D .GT. RESID) RESID = D
   10 CONTINUE
      DO 20 J = 1, NY
      DO 20 I = 1, NX
   20 U(I,J) = UNEW(I,J)
      END
C
      SUBROUTINE SOR(NX, NY, RESID)
      INTEGER NX, NY, I, J
      REAL RESID, R, TOL, OMEGA
      REAL U(0:65, 0:65), UNEW(0:65, 0:65)
      COMMON /GRID/ U, UNEW /CTRL/ TOL, OMEGA
      RESID = 0.0
      DO 10 J = 1, NY
         DO 10 I = 1, NX
            R = 0.25 * (U(I-1,J) + U(I+1,J) + U(I,J-1) + U(I,J+1))
     &          - U(I,J)
            U(I,J) = U(I,J) + OMEGA * R
            RESID = MAX(RESID, ABS(R))
   10 CONTINUE
      RETURN
      END
